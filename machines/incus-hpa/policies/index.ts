import type { Policy, PolicyName } from '../types';
import { fixedPolicy } from './fixed';
import { kubernetesPolicy } from './kubernetes';
import { seedPolicy } from './seed';

export const POLICIES: Record<PolicyName, Policy> = {
  seed: seedPolicy,
  kubernetes: kubernetesPolicy,
  fixed: fixedPolicy,
};

export { seedPolicy, kubernetesPolicy, fixedPolicy };
