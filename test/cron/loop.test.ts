import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CronConfig } from '../../machines/cron';
import { parseEntry } from '../../machines/cron';
import { runnerFor } from '../../sim/loops';
import { cronBinding } from '../../sim/loops/cron';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { CronFault } from '../../sim/worlds/cron';
import { createCronWorld } from '../../sim/worlds/cron';

const START = Date.parse('2026-03-29T01:50:00Z');
function runner(config: CronConfig, timeline: TimelineEntry<CronFault, CronConfig>[] = [], runs = 1000) {
  const runtimes = Object.fromEntries(config.entries.map((e) => [e.name, { durationMs: runs, jitterMs: 0 }]));
  return new Runner(cronBinding, { scenario: 't', seed: 1, world: createCronWorld(1, START, runtimes), config, timeline });
}

describe('cron machine', () => {
  it('at start-up missed runs are not made up; only @reboot jobs run', () => {
    const r = runner({ entries: [parseEntry('early', '0 1 * * *'), parseEntry('boot', '@reboot')], flock: false });
    r.run(30_000);
    expect(r.world.ran.map((x) => x.job)).toEqual(['boot']);
  });

  it('a host outage: the run due while down is lost, @reboot runs again on boot', () => {
    const r = runner({ entries: [parseEntry('backup', '0 2 * * *'), parseEntry('boot', '@reboot')], flock: false }, [
      { at: 5 * 60_000, fault: { kind: 'hostDown', forMs: 30 * 60_000 } },
    ]);
    r.run(60 * 60_000);
    expect(r.world.ran.map((x) => x.job)).toEqual(['boot', 'boot']);
  });

  it('overlapping runs are allowed; flock -n skips the run while the lock is held', () => {
    const e = [parseEntry('slow', '* * * * *')];
    const plain = runner({ entries: e, flock: false }, [], 150_000);
    plain.run(20 * 60_000);
    expect(plain.world.counts.slow!.maxConcurrent).toBe(3);
    const locked = runner({ entries: e, flock: true }, [], 150_000);
    locked.run(20 * 60_000);
    expect(locked.world.counts.slow!.maxConcurrent).toBe(1);
    expect(locked.world.counts.slow!.skipped).toBeGreaterThan(0);
  });

  it('observe → compare → act → wait each due minute', () => {
    const r = runner({ entries: [parseEntry('tick', '* * * * *')], flock: false });
    r.run(1);
    const phases: string[] = [];
    for (let i = 0; i < 5; i++) {
      r.step();
      phases.push(r.phase);
    }
    expect(phases).toEqual(['observe', 'compare', 'act', 'wait', 'observe']);
  });
});

const scenarios = readdirSync('scenarios')
  .filter((f) => f.startsWith('cron-') && f.endsWith('.yaml'))
  .map((f) => `scenarios/${f}`);
describe('cron scenarios', () => {
  it('ship at least two', () => expect(scenarios.length).toBeGreaterThanOrEqual(2));
  for (const file of scenarios) {
    it(`${file} is deterministic`, () => {
      const once = () => {
        const { runner, scenario } = runnerFor(file);
        return JSON.stringify(runner.run(scenario.durationMs).trace());
      };
      expect(once()).toBe(once());
    });
  }
});
