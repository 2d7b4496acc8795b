import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';

// Scenario files name their loop; other YAML there (e.g. a plain hpa.yaml config) is not a scenario.
const scenarios = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => `scenarios/${f}`)
  .filter((f) => /^loop:/m.test(readFileSync(f, 'utf8')));

describe('determinism: same scenario and seed → identical trace', () => {
  for (const file of scenarios) {
    it(file, () => {
      const once = () => {
        const { runner, scenario } = runnerFor(file);
        return JSON.stringify(runner.run(Math.min(scenario.durationMs, 3_600_000)).trace());
      };
      expect(once()).toBe(once());
    });
  }

  it('a different seed gives different pod names', () => {
    const names = (seed: number) => runnerFor('scenarios/talk-lab.yaml', { seed }).runner.run(120_000).world;
    expect(JSON.stringify(names(1))).not.toBe(JSON.stringify(names(2)));
  });
});

describe('the talk scenario', () => {
  it('seed policy scales up from 1 pod under stress and back down when it ends', () => {
    const { runner } = runnerFor('scenarios/talk-lab.yaml');
    const running = () => (runner.world as { instances: { status: string }[] }).instances.filter((i) => i.status === 'Running').length;
    runner.run(60_000);
    expect(running()).toBe(1);
    runner.run(11 * 60_000);
    expect(running()).toBeGreaterThan(1);
    runner.run(25 * 60_000);
    expect(running()).toBe(1);
  });
});
