// Seed 001's Application operator as a user's controller module (examples/application): the
// seed's cleanup-from-the-cache bug is found with its pinned shortest trace, the fix (delete by
// name) holds on the same bounds, and a run is deterministic.
import { describe, expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import { checkFile, movesOf } from '../check/check-file';

describe('the Application operator (seed 001) as a user module', () => {
  it('the planted bug (the cleanup deletes what the cache shows) is found with its shortest trace', () => {
    const { run, verdicts } = checkFile('examples/application/check-buggy.yaml');
    expect(run.result.stats.complete).toBe(true);
    expect(verdicts).toEqual({
      'no-crash': 'holds',
      'no-orphans': 'holds',
      idempotent: 'holds',
      differential: 'holds',
      'cleanup-before-finalizer': 'violated',
      'one-deployment': 'holds',
      converges: 'holds',
      'has-deployment': 'holds',
    });
    const c = run.counterexamples.find((x) => x.property === 'cleanup-before-finalizer')!;
    expect({ steps: c.path.length, moves: movesOf(run, c.path) }).toEqual({ steps: 12, moves: ['kubectl delete application/shop'] });
    const notes = c.trace.frames.map((f) => f.note ?? '');
    // The Application goes while the cache has not shown the Deployment just created: the cleanup misses it.
    expect(notes).toContain('reconcile shop/shop: update Application shop');
    expect(notes.at(-1)).toContain('✗ cleanup-before-finalizer');
  }, 60_000);

  it('the fixed module (delete by name) holds on the same bounds', () => {
    const { run, verdicts } = checkFile('examples/application/check.yaml');
    expect(run.result.stats.complete).toBe(true);
    expect(Object.entries(verdicts).filter(([, v]) => v !== 'holds')).toEqual([]);
    expect(run.result.stats.distinct).toBe(5859);
  }, 60_000);

  it('same seed, same trace', () => {
    const traces = [0, 1].map(() => {
      const { runner, scenario } = runnerFor('examples/application/check.yaml');
      runner.run(scenario.durationMs);
      return JSON.stringify(runner.trace());
    });
    expect(traces[0]).toBe(traces[1]);
    expect(traces[0]).toContain(
      'reconcile shop/shop: update Application shop, create Deployment shop-deployment, create Service shop-service',
    );
    expect(traces[0]).toContain('delete Deployment shop-deployment, delete Service shop-service, update Application shop');
  });
});
