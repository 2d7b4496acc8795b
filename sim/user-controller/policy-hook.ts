import type { HpaConfig, ModulePolicyId } from '../../machines/incus-hpa';
import { EMPTY_POLICY_MEMORY, isModulePolicy, policyFor } from '../../machines/incus-hpa';
import { InputError } from '../scenario/errors';

/**
 * How a config's `policy: { module }` is loaded. The config parsers also run in the browser (the
 * lab), where a module cannot be sandboxed; the Node side installs the real loader
 * (sim/user-controller/policy-module.ts, from sim/loops/index.ts).
 */
export type PolicyModuleLoader = (configFile: string, field: string, modulePath: string) => ModulePolicyId;

let loader: PolicyModuleLoader | undefined;
export const setPolicyModuleLoader = (l: PolicyModuleLoader) => { loader = l; };

/** Loads and registers a policy module (path relative to `configFile`); returns its id. */
export function loadPolicyModule(configFile: string, field: string, modulePath: string): ModulePolicyId {
  if (!loader) {
    throw new InputError(configFile, field, 'expected a built-in policy (seed, kubernetes, fixed) in the lab: a policy module runs under the CLI (loopscope sim / check / real), whose trace the lab loads');
  }
  return loader(configFile, field, modulePath);
}

/**
 * A first call on an empty observation (no instances yet: a policy must then say how many to
 * create), so a module that throws, hangs or answers another shape is bad input before anything
 * runs. Once running, a failure fails that period (machine.ts) instead.
 */
export function probePolicyModule(configFile: string, field: string, config: HpaConfig): void {
  if (!isModulePolicy(config.policy)) return;
  try {
    policyFor(config.policy)({ observation: { at: 0, instances: [] }, config, memory: EMPTY_POLICY_MEMORY });
  } catch (err) {
    // A PolicyModuleError's reason is its message without the id (the field already names the module).
    const reason = err instanceof Error ? ('reason' in err && typeof err.reason === 'string' ? err.reason : err.message) : String(err);
    throw new InputError(configFile, field, `expected a policy that decides on an empty observation (no instances), but it ${reason}`);
  }
}
