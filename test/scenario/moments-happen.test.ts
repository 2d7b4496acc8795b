import { describe, expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import { momentIndex } from '../../sim/scenario/moments';
import { SHIPPED_SCENARIOS } from '../contract/scenarios';

/** A chapter the lab lists but the run never reaches would be a dead button in a talk (and a dead
 * stop of the tour): every declared moment of every shipped scenario happens in its own run. */
const withMoments = SHIPPED_SCENARIOS.filter((f) => !f.includes('/bench-'))
  .map((file) => ({ file, ...runnerFor(file) }))
  .filter((s) => (s.scenario.moments ?? []).length > 0);

describe("declared moments happen in their scenario's run", () => {
  it("the talk's scenarios declare chapters (one per tour stop at least)", () => {
    expect(withMoments.map((s) => s.file).sort()).toEqual(
      expect.arrayContaining([
        'scenarios/cron-normal.yaml',
        'scenarios/kubernetes-replicaset.yaml',
        'scenarios/puppet-webserver.yaml',
        'scenarios/systemd-crash-loop.yaml',
        'scenarios/talk-lab.yaml',
        'scenarios/terraform-drift.yaml',
      ]),
    );
  });
  for (const { file, scenario, runner } of withMoments) {
    it(file, () => {
      runner.run(scenario.durationMs);
      const frames = runner.frames;
      for (const m of scenario.moments ?? []) {
        const i = momentIndex(m, frames);
        expect(i, `${file}: moment ${m.name}`).toBeDefined();
        // An event's moment is not the opening frame: it shows something that happened.
        if (!('at' in m)) expect(i, `${file}: moment ${m.name}`).toBeGreaterThan(0);
      }
    });
  }
});
