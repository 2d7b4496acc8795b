import { dirname, relative, resolve } from 'node:path';
import type { ModulePolicyId } from '../../machines/incus-hpa';
import { MODULE_TIMEOUT_MS } from './hook';
import type { PolicyModuleLoader } from './policy-hook';
import { loadPolicySandbox } from './policy-sandbox';

/** A module's id: `module:` + its path relative to the working directory (as controller modules). */
const policyIdOf = (file: string): ModulePolicyId => `module:${relative(process.cwd(), file) || file}`;

/** The Node side's loader of `policy: { module }` (path relative to the config file): sandboxed. */
export const loadPolicyModuleFile: PolicyModuleLoader = (configFile, field, modulePath) => {
  const file = resolve(dirname(configFile), modulePath);
  const id = policyIdOf(file);
  const sandbox = loadPolicySandbox(file, id, configFile, field, MODULE_TIMEOUT_MS);
  return { id, policy: { decide: sandbox.decide, peek: sandbox.peek } };
};
