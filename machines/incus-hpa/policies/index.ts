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

/** A module's calls: `decide` for the machine; `peek` for summaries (null when it fails; its own
 * hang state, so a summary never changes what the machine decides). */
export interface ModulePolicy {
  decide: Policy;
  peek: (input: PolicyInput) => Decision | null;
}

/**
 * The policy modules (`policy: { module }`) a scenario or an hpa.yaml loaded, by id: the run's own,
 * handed to the machine with provide() (machine.ts providePolicyModules), so the config carries
 * only the id — plain data, as the explorer and the trace need.
 */
export type PolicyModules = ReadonlyMap<string, ModulePolicy>;
export const NO_POLICY_MODULES: PolicyModules = new Map();

function moduleFor(modules: PolicyModules, id: string): ModulePolicy {
  const policy = modules.get(id);
  if (!policy)
    throw new Error(
      `policy ${id} is not loaded: a policy module runs under the CLI (loopscope sim / check / real) with the file that names it`,
    );
  return policy;
}

export const policyFor = (id: PolicyId, modules: PolicyModules = NO_POLICY_MODULES): Policy =>
  isModulePolicy(id) ? moduleFor(modules, id).decide : POLICIES[id];

/** The policy's Decision for a summary: a built-in's, or a module's through `peek` (null if it fails). */
export const peekPolicy = (id: PolicyId, input: PolicyInput, modules: PolicyModules = NO_POLICY_MODULES): Decision | null =>
  isModulePolicy(id) ? moduleFor(modules, id).peek(input) : POLICIES[id](input);
