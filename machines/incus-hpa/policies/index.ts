import type { Decision, Policy, PolicyId, PolicyInput, PolicyName } from '../types';
import { isModulePolicy } from '../types';
import { fixedPolicy } from './fixed';
import { kubernetesPolicy } from './kubernetes';
import { seedPolicy } from './seed';

const POLICIES: Record<PolicyName, Policy> = {
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
/** A module's calls: `decide` for the machine; `peek` for summaries (null when it fails; its own
 * hang state, so a summary never changes what the machine decides). */
export interface ModulePolicy { decide: Policy; peek: (input: PolicyInput) => Decision | null }
const modules = new Map<string, ModulePolicy>();
let resolver: ((id: string) => ModulePolicy) | undefined;

export const registerPolicy = (id: PolicyId, decide: Policy, peek: ModulePolicy['peek']) => { modules.set(id, { decide, peek }); };
export const setPolicyResolver = (r: (id: string) => ModulePolicy) => { resolver = r; };

function moduleFor(id: string): ModulePolicy {
  let policy = modules.get(id);
  if (!policy) {
    if (!resolver) throw new Error(`policy ${id} is not loaded: a policy module runs under the CLI (loopscope sim / check / real)`);
    policy = resolver(id);
    modules.set(id, policy);
  }
  return policy;
}

export const policyFor = (id: PolicyId): Policy => (isModulePolicy(id) ? moduleFor(id).decide : POLICIES[id]);

/** The policy's Decision for a summary: a built-in's, or a module's through `peek` (null if it fails). */
export const peekPolicy = (id: PolicyId, input: PolicyInput): Decision | null => (isModulePolicy(id) ? moduleFor(id).peek(input) : POLICIES[id](input));
