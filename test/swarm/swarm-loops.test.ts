// The swarm on the other loops' check scenarios (scenario-case.ts says what is held), and that
// every shipped check scenario is either held here or known to have nothing to find.
import { describe, expect, it } from 'vitest';
import { CHECK_SCENARIOS, NOTHING_TO_FIND, swarmFindsWhatTheExplorerFinds } from './scenario-case';

describe('swarm vs explorer: incus-hpa, puppet, systemd, terraform', () => {
  for (const file of CHECK_SCENARIOS.filter((f) => !f.startsWith('cron-') && !f.startsWith('kubernetes-') && !NOTHING_TO_FIND.has(f)))
    swarmFindsWhatTheExplorerFinds(file);

  it('every name in NOTHING_TO_FIND is a shipped check scenario', () => {
    expect(CHECK_SCENARIOS.length).toBeGreaterThanOrEqual(26);
    for (const f of NOTHING_TO_FIND) expect(CHECK_SCENARIOS).toContain(f);
  });
});
