import { describe, expect, it } from 'vitest';
import { checkScenario, checkScenarioAsync } from '../../sim/check/check';
import type { Progress } from '../../sim/check/model';
import { loadScenario } from '../../sim/loops';
import { progressLine } from '../../cli/check-progress';

/** Limits of a search: Ctrl-C (an aborted signal), --max-memory, and the progress line. */
const { entry, scenario } = loadScenario('scenarios/incus-hpa-check-small.yaml');
const statuses = (r: ReturnType<typeof checkScenario>) => Object.fromEntries(r.result.verdicts.map((v) => [v.property.name, v.status]));

describe('explorer limits', () => {
  it('an interrupted search reports what it found; the undecided verdicts are unknown', async () => {
    const full = checkScenario(entry, scenario);
    const interrupt = new AbortController();
    // Ctrl-C as the search starts: the first slice (1 ms) runs, then the search stops.
    const partial = await checkScenarioAsync(entry, scenario, {
      signal: interrupt.signal,
      sliceMs: 1,
      progressMs: 0,
      onProgress: () => interrupt.abort(),
    });
    expect(partial.result.stats.stopped).toBe('interrupted');
    expect(partial.result.stats.complete).toBe(false);
    expect(partial.result.stats.distinct).toBeLessThan(full.result.stats.distinct);
    const got = statuses(partial);
    for (const [name, status] of Object.entries(statuses(full))) {
      // Found before the interrupt: the same verdict; otherwise unknown — never a different decision.
      expect([status, 'unknown'], name).toContain(got[name]);
    }
    expect(got['never-touches-unowned']).toBe('unknown');
  });

  it('--max-memory stops cleanly with the memory limit as the reason', () => {
    const r = checkScenario(entry, scenario, { maxMemoryBytes: 1 });
    expect(r.result.stats.stopped).toBe('max-memory');
    expect(r.result.verdicts.find((v) => v.property.name === 'never-touches-unowned')!.detail).toMatch(/memory limit reached/);
  });

  it('progress reports states, rate, frontier, memory, and an ETA only when the state bound is given', () => {
    const seen: Progress[] = [];
    checkScenario(entry, scenario, { progressMs: 0, onProgress: (p) => seen.push(p), maxStates: 100_000 });
    expect(seen.length).toBeGreaterThan(0);
    const line = progressLine({ ...seen.at(-1)!, elapsedMs: 5000 });
    expect(line).toMatch(
      /^check: [\d,]+ states \([\d,]+ generated\), [\d,]+ states\/s, depth \d+, frontier [\d,]+, rss [\d,]+ MiB, 5s, ETA ≤ \d+s \(bound 100,000\)$/,
    );
    const { maxStates: _, ...unbounded } = seen.at(-1)!;
    expect(progressLine(unbounded)).not.toMatch(/ETA/);
  });
});
