// Where a created name sorts, as the explorer's choice: a name of the HPA's shape (prefix + 8 hex) at every
// rank there is room for, the world creating it there when told to, and the search finding what only another
// place of a name shows (the swarm's finding on incus-hpa-check-flapping, which the seed's one draw hid).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameAtRank, rankOf } from '../../sim/worlds/incus-hpa-names';
import { createHpaWorld, hpaWorldModel } from '../../sim/worlds/incus-hpa';
import { checkFile, movesOf } from '../check/check-file';
import { config } from './helpers';

const PREFIX = 'pod';
const SHAPE = /^pod[0-9a-f]{8}$/;
const hex8 = fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((n) => `${PREFIX}${n.toString(16).padStart(8, '0')}`);
// Names of the HPA's shape, crowded together to leave no room sometimes, and the neighbours a scenario names.
const crowded = fc.integer({ min: 0, max: 40 }).map((n) => `${PREFIX}0000${n.toString(16).padStart(4, '0')}`);
const other = fc.constantFrom('pod-a', 'podman-cache', 'a', 'zz', 'pod', 'pod0', 'podffffffff0');
const names = fc.uniqueArray(fc.oneof(hex8, crowded, other), { maxLength: 8 }).map((list) => [...list].sort());

describe('a name at a rank', () => {
  it('has the HPA shape and sorts after exactly that many names, or there is no room for one', () => {
    fc.assert(
      fc.property(names, fc.nat(9), (sorted, rank) => {
        const name = nameAtRank(PREFIX, sorted, rank);
        if (name !== undefined) {
          expect(name).toMatch(SHAPE);
          expect(sorted).not.toContain(name);
          expect(rankOf(name, sorted)).toBe(rank);
          return;
        }
        // None: the rank is out of range, or no name of the shape lies strictly between the neighbours
        // (probed evenly over the whole range and right next to each neighbour of the shape).
        if (rank > sorted.length) return;
        const below = sorted[rank - 1];
        const above = sorted[rank];
        const next = (n: number) => [n - 1, n + 1].filter((m) => m >= 0 && m < 2 ** 32);
        const near = [below, above].flatMap((x) => (x !== undefined && SHAPE.test(x) ? next(parseInt(x.slice(PREFIX.length), 16)) : []));
        const probes = [...Array.from({ length: 4096 }, (_, i) => i * 2 ** 20), ...near, 0, 2 ** 32 - 1];
        for (const n of probes) {
          const probe = `${PREFIX}${n.toString(16).padStart(8, '0')}`;
          expect((below === undefined || probe > below) && (above === undefined || probe < above), probe).toBe(false);
        }
      }),
    );
  });
});

describe('the world creates the next name where the environment placed it', () => {
  const start = () =>
    createHpaWorld(
      7,
      {
        hostMemoryBytes: 8 * 2 ** 30,
        baselineBytes: 50 * 2 ** 20,
        latency: { list: 100, create: 1000, start: 1000, stop: 500, delete: 500 },
        failureProbability: 0,
      },
      [
        { name: 'pod-a', owner: 'hpa', status: 'Running', limitBytes: 0, stressBytes: 0, serves: true, createdAt: 0 },
        { name: 'pod80000000', owner: 'hpa', status: 'Running', limitBytes: 0, stressBytes: 0, serves: true, createdAt: 0 },
        { name: 'podman-cache', owner: null, status: 'Running', limitBytes: 0, stressBytes: 0, serves: false, createdAt: 0 },
      ],
    );
  const create = (world: ReturnType<typeof start>) => hpaWorldModel.begin(world, 'createPod', { config: config({ name: 'hpa' }) }, 0).world;

  it.each([1, 2])('after %i instances', (rank) => {
    const placed = hpaWorldModel.inject(start(), { kind: 'nameNext', rank }, 0);
    expect(placed.note).toBe(`the next created name sorts after ${rank} instance${rank === 1 ? '' : 's'}`);
    const world = create(placed.world);
    const created = world.instances.findIndex((i) => !['pod-a', 'pod80000000', 'podman-cache'].includes(i.name));
    expect(created).toBe(rank);
    expect(world.instances[created]!.name).toMatch(SHAPE);
    // The choice is used once: the next create is the generator's again.
    expect(world.nextNameRank).toBeUndefined();
  });

  it('without a choice, the seed draws the name (the same one as before there were choices)', () => {
    const a = create(start());
    const b = create(start());
    expect(a.instances.map((i) => i.name)).toEqual(b.instances.map((i) => i.name));
    expect(a.nextNameRank).toBeUndefined();
  });
});

describe('the explorer takes every place of a created name', () => {
  it('incus-hpa-check-flapping under the seed: converges is violated, by placing names the seed does not draw', () => {
    const { run, verdicts } = checkFile('scenarios/incus-hpa-check-flapping.yaml');
    expect(run.result.stats.complete).toBe(true);
    expect(verdicts.converges).toBe('violated');
    const c = run.counterexamples.find((x) => x.property === 'converges')!;
    expect(movesOf(run, c.path).some((m) => m.startsWith('the next created name sorts after'))).toBe(true);
    // Replayed through the Runner with those names: the trace ends on the violation.
    expect(c.trace.frames.some((f) => f.note?.includes('✗ converges'))).toBe(true);
    // The choices are the check's, not the scenario's moves.
    expect(run.alphabet.filter((m) => m.choice).every((m) => m.repeats && m.index >= 2)).toBe(true);
  }, 60_000);
});
