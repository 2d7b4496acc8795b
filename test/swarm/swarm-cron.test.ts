// The swarm on the cron check scenarios (scenario-case.ts says what is held).
import { describe } from 'vitest';
import { CHECK_SCENARIOS, NOTHING_TO_FIND, swarmFindsWhatTheExplorerFinds } from './scenario-case';

describe('swarm vs explorer: cron', () => {
  for (const file of CHECK_SCENARIOS.filter((f) => f.startsWith('cron-') && !NOTHING_TO_FIND.has(f))) swarmFindsWhatTheExplorerFinds(file);
});
