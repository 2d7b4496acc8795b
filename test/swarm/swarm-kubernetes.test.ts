// The swarm on the Kubernetes check scenarios (scenario-case.ts says what is held).
import { describe } from 'vitest';
import { CHECK_SCENARIOS, NOTHING_TO_FIND, swarmFindsWhatTheExplorerFinds } from './scenario-case';

describe('swarm vs explorer: kubernetes', () => {
  for (const file of CHECK_SCENARIOS.filter((f) => f.startsWith('kubernetes-') && !NOTHING_TO_FIND.has(f)))
    swarmFindsWhatTheExplorerFinds(file);
});
