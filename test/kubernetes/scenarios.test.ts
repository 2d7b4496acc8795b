import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import { formatTimeline } from '../../sim/format';

const files = readdirSync('scenarios')
  .filter((f) => f.startsWith('kubernetes-') && f.endsWith('.yaml'))
  .map((f) => `scenarios/${f}`);

describe('every k8s scenario runs and is deterministic (same seed → identical output)', () => {
  for (const file of files) {
    it(file, () => {
      const once = () => {
        const { runner, scenario, entry } = runnerFor(file);
        runner.run(scenario.durationMs);
        return formatTimeline(runner.trace(), entry.columns) + JSON.stringify(runner.trace());
      };
      const a = once();
      expect(a).toBe(once());
      expect(a.length).toBeGreaterThan(1000);
    });
  }
});
