// One scenario, two worlds: the seeded simulator and a REAL Incus host. Same policy, same demand
// steps (time scaled from the scenario's 15 s period to 1 s) → the same create/delete decisions.
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { RealHpaRunner } from '../../real/hpa-runner';
import type { IncusClient } from '../../real/incus';
import { LoadDriver } from '../../real/load';
import { loadTimelineOf } from '../../real/load-timeline';
import type { HpaScenario } from '../../sim/loops/incus-hpa';
import { runnerFor } from '../../sim/loops';
import type { Frame } from '../../sim/trace';
import { formatTimeline } from '../../sim/format';
import { hpaColumns } from '../../sim/loops/incus-hpa-format';
import { ROOT, realConfig, sleep, uniqueHpa, connectForSuite, expectConforms, withIncus } from './real-helpers';

const hpa = uniqueHpa('cmp');
const SCENARIO = resolve(ROOT, 'scenarios/real-compare.yaml');
const REAL_PERIOD_MS = 1_000;

/** The acts a run did, in order: what the machine's act actors completed. */
function decisions(frames: Frame[]): string[] {
  return frames.flatMap((f) =>
    f.event === 'xstate.done.actor.createPod' ? ['create'] : f.event === 'xstate.done.actor.deletePod' ? ['delete'] : [],
  );
}

withIncus.describe('the same scenario in the simulator and on real Incus', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });

  it('makes the same sequence of create/delete decisions (policy fixed)', async () => {
    const sim = runnerFor(SCENARIO);
    const scenario = sim.scenario as HpaScenario;
    sim.runner.run(scenario.durationMs);
    const simDecisions = decisions(sim.runner.trace().frames);
    expect(simDecisions).toEqual(['create', 'create', 'create', 'delete', 'delete']);

    const scale = REAL_PERIOD_MS / scenario.config.periodMs;
    const base = realConfig(hpa);
    // The simulator's loop is period-driven: compare with event wake-ups off (the load driver's writes
    // and our own acts would otherwise wake the real loop between periods, mid re-spread).
    const runner = new RealHpaRunner({
      client,
      events: false,
      config: { ...base, config: { ...scenario.config, name: hpa.name, namePrefix: hpa.prefix, periodMs: REAL_PERIOD_MS } },
    });
    const driver = new LoadDriver(client, hpa.name, 250);
    const timeline = loadTimelineOf(scenario);
    await runner.start();
    const t0 = Date.now();
    try {
      await driver.setDemand(timeline.initial);
      driver.start();
      for (const step of timeline.steps) {
        await sleep(Math.max(0, t0 + step.at * scale - Date.now())); // not a wait: paces the scenario's timeline in real time
        await driver.setDemand(step.bytes);
      }
      await sleep(Math.max(0, t0 + scenario.durationMs * scale - Date.now())); // not a wait: the scenario's duration, in real time
    } finally {
      await driver.stop();
      await runner.stop();
    }
    const timelineText = formatTimeline(runner.trace(), hpaColumns);
    expect(decisions(runner.frames), `real run:\n${timelineText}`).toEqual(simDecisions);
    expectConforms(runner.trace(), 'sim-vs-real');
  }, 90_000);
});
