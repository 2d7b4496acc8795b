import type { HpaConfig, ModulePolicy, ModulePolicyId, PolicyModules } from '../../machines/incus-hpa';
import { EMPTY_POLICY_MEMORY, isModulePolicy, policyFor } from '../../machines/incus-hpa';
import { InputError } from '../scenario/errors';

/** Loads a config's `policy: { module }` (path relative to `configFile`): its id and its calls. */
export type PolicyModuleLoader = (configFile: string, field: string, modulePath: string) => { id: ModulePolicyId; policy: ModulePolicy };

/**
 * Where a config's policy modules load: the host's loader — the config parsers also run in the
 * browser (the lab), where a module cannot be sandboxed, and get none there — and the run's own
 * modules by id, which the machine is provided with.
 */
export interface PolicyModuleHost {
  load?: PolicyModuleLoader | undefined;
  loaded: Map<string, ModulePolicy>;
}

/** Loads a policy module into `host.loaded`; returns its id. */
export function loadPolicyModule(
  host: PolicyModuleHost | undefined,
  configFile: string,
  field: string,
  modulePath: string,
): ModulePolicyId {
  if (!host?.load) {
    throw new InputError(
      configFile,
      field,
      'expected a built-in policy (seed, kubernetes, fixed) in the lab: a policy module runs under the CLI (loopscope sim / check / real), whose trace the lab loads',
    );
  }
  const { id, policy } = host.load(configFile, field, modulePath);
  host.loaded.set(id, policy);
  return id;
}

/**
 * A first call on an empty observation (no instances yet: a policy must then say how many to
 * create), so a module that throws, hangs or answers another shape is bad input before anything
 * runs. Once running, a failure fails that period (machine.ts) instead.
 */
export function probePolicyModule(configFile: string, field: string, config: HpaConfig, modules: PolicyModules): void {
  if (!isModulePolicy(config.policy)) return;
  try {
    policyFor(config.policy, modules)({ observation: { at: 0, instances: [] }, config, memory: EMPTY_POLICY_MEMORY });
  } catch (err) {
    // A PolicyModuleError's reason is its message without the id (the field already names the module).
    const reason = err instanceof Error ? ('reason' in err && typeof err.reason === 'string' ? err.reason : err.message) : String(err);
    throw new InputError(configFile, field, `expected a policy that decides on an empty observation (no instances), but it ${reason}`);
  }
}
