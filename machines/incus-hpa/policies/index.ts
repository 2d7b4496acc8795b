import type { Policy, PolicyId, PolicyName } from '../types';
import { isModulePolicy } from '../types';
import { fixedPolicy } from './fixed';
import { kubernetesPolicy } from './kubernetes';
import { seedPolicy } from './seed';

export const POLICIES: Record<PolicyName, Policy> = {
  seed: seedPolicy,
  kubernetes: kubernetesPolicy,
  fixed: fixedPolicy,
};

export { seedPolicy, kubernetesPolicy, fixedPolicy };

/**
 * Policy modules (`policy: { module }`), by id: the scenario loader registers each one it loads
 * (sandboxed, sim/user-controller/policy-module.ts), so the config carries only the id — plain
 * data, as the explorer and the trace need. A thread that did not load the scenario (an explorer
 * worker) loads a module on first use through the resolver the Node side installs.
 */
const modules = new Map<string, Policy>();
let resolver: ((id: string) => Policy) | undefined;

export const registerPolicy = (id: PolicyId, policy: Policy) => { modules.set(id, policy); };
export const setPolicyResolver = (r: (id: string) => Policy) => { resolver = r; };

export function policyFor(id: PolicyId): Policy {
  if (!isModulePolicy(id)) return POLICIES[id];
  let policy = modules.get(id);
  if (!policy) {
    if (!resolver) throw new Error(`policy ${id} is not loaded: a policy module runs under the CLI (loopscope sim / check / real)`);
    policy = resolver(id);
    modules.set(id, policy);
  }
  return policy;
}
