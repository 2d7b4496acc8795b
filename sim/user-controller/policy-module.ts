import { dirname, relative, resolve } from 'node:path';
import type { ModulePolicyId } from '../../machines/incus-hpa';
import { registerPolicy, setPolicyResolver } from '../../machines/incus-hpa';
import { MODULE_TIMEOUT_MS } from './hook';
import { setPolicyModuleLoader } from './policy-hook';
import { loadPolicySandbox } from './policy-sandbox';

/** A module's id: `module:` + its path relative to the working directory (as controller modules). */
const policyIdOf = (file: string): ModulePolicyId => `module:${relative(process.cwd(), file) || file}`;

/** Loads `policy: { module }` of a config file (path relative to it), registers it, returns its id. */
function loadPolicyModuleFile(configFile: string, field: string, modulePath: string): ModulePolicyId {
  const file = resolve(dirname(configFile), modulePath);
  const id = policyIdOf(file);
  const sandbox = loadPolicySandbox(file, id, configFile, field, MODULE_TIMEOUT_MS);
  registerPolicy(id, sandbox.decide, sandbox.peek);
  return id;
}

/** The Node side's loaders: scenario and hpa.yaml parsing, and by id in a thread that parsed
 * nothing (an explorer worker: the id alone names the file). Installed by sim/loops/index.ts. */
export function installPolicyModules(): void {
  setPolicyModuleLoader(loadPolicyModuleFile);
  setPolicyResolver((id) => {
    const sandbox = loadPolicySandbox(resolve(id.slice('module:'.length)), id as ModulePolicyId, id, 'policy.module', MODULE_TIMEOUT_MS);
    return { decide: sandbox.decide, peek: sandbox.peek };
  });
}
