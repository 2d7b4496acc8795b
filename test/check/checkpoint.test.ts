// Fingerprint mode's disk side: the BFS frontier spilled to files (sim/check/spilled-level.ts) and
// checkpoints resumed (sim/check/checkpoint.ts, resume.ts) change nothing a check reports — counts,
// depth, verdicts, shortest counterexamples — on every shipped check scenario, compared with a
// plain run in the same test; the collision probability is TLC's estimate from the run's counts.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareCheck } from '../../sim/check/check';
import { CHECKPOINT_FILE, checkpointPath } from '../../sim/check/checkpoint';
import { explore } from '../../sim/check/explorer';
import type { ExploreOptions, ExploreResult } from '../../sim/check/model';
import { loadScenario } from '../../sim/loops';

const TMP = mkdtempSync(join(tmpdir(), 'loopscope-checkpoint-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const fresh = (name: string) => mkdtempSync(join(TMP, `${name.replace(/\W+/g, '-')}-`));

const same = (r: ExploreResult<unknown, unknown>) => ({
  distinct: r.stats.distinct,
  generated: r.stats.generated,
  depth: r.stats.depth,
  stopped: r.stats.stopped,
  verdicts: r.verdicts.map((v) => [v.property.name, v.status, v.path, v.settleMs, v.cycleStart, v.detail]),
});

const shipped = readdirSync('scenarios')
  .filter((f) => /-check-.*\.yaml$/.test(f))
  .sort()
  .map((f) => `scenarios/${f}`);
// Spilling and resuming work on keys and levels, the same for every loop: each loop's check scenarios
// of a few seconds, and the deepest search shipped (572 levels), stand for all; the largest spaces
// (Kubernetes' deployment and HPA, cron's DST days: 8–43 s each, three searches apiece) add time and
// no new case.
const LARGE = new Set([
  'scenarios/kubernetes-check-deployment.yaml',
  'scenarios/kubernetes-check-hpa.yaml',
  'scenarios/kubernetes-check-composite.yaml',
  'scenarios/cron-check-dst-end.yaml',
  'scenarios/cron-check-dst-start.yaml',
  'scenarios/kubernetes-check-replicaset-no-expectations.yaml',
]);
const files = shipped.filter((f) => !LARGE.has(f));

describe('spilling the frontier and resuming a checkpoint change nothing a check reports', () => {
  // Three searches each (plain; spilled and checkpointed at every level; resumed from the middle checkpoint).
  it('every loop has shipped check scenarios to compare', () => {
    for (const f of LARGE) expect(shipped).toContain(f);
    const loops = (list: string[]) => new Set(list.map((f) => /^scenarios\/(.+?)-check-/.exec(f)?.[1]));
    expect(loops(files)).toEqual(loops(shipped));
    expect(loops(files).size).toBeGreaterThanOrEqual(6);
  });
  for (const file of files) {
    it(`${file}: spilled = in memory; resumed from a mid-search checkpoint = uninterrupted`, () => {
      const { entry, scenario } = loadScenario(file);
      const p = prepareCheck(entry, scenario);
      const run = (options: ExploreOptions) =>
        explore(entry.binding, p.check, { config: p.config, world: scenario.world }, p.alphabet, p.properties, options);
      const plain = run({});

      // A checkpoint at every level (every 100 ms for a search hundreds of levels deep: a checkpoint at each of the
      // 572 levels of cron-check-clock-back-twice writes its tables 572 times; such a search lasts seconds, so it
      // still writes some), each kept aside; lazyFrom 0: every state of every level goes through the spill file.
      const dir = fresh(`${file}-checkpoints`);
      const spillDir = fresh(`${file}-spill`);
      const kept: { copy: string; depth: number }[] = [];
      const everyMs = plain.stats.depth > 200 ? 100 : 0;
      const spilled = run({
        spillDir,
        lazyFrom: 0,
        checkpoint: {
          dir,
          identity: 'this search',
          everyMs,
          onWrite: ({ depth }) => {
            const copy = join(dir, `level-${depth}`);
            copyFileSync(checkpointPath(dir), copy);
            kept.push({ copy, depth });
          },
        },
      });
      expect(same(spilled)).toEqual(same(plain));
      expect(readdirSync(spillDir)).toEqual([]); // its level files are gone
      if (plain.stats.depth > 1) expect(kept.length).toBeGreaterThan(0);
      if (kept.length === 0) return; // a search of one level has no boundary to resume at
      const middle = kept[Math.floor(kept.length / 2)]!;
      const resumeDir = fresh(`${file}-resume`);
      copyFileSync(middle.copy, join(resumeDir, CHECKPOINT_FILE));
      const resumed = run({
        checkpoint: { dir: resumeDir, identity: 'this search', everyMs: Number.POSITIVE_INFINITY },
        spillDir: fresh(`${file}-resume-spill`),
        lazyFrom: 0,
      });
      expect(resumed.stats.resumedFrom?.depth).toBe(middle.depth);
      expect(same(resumed)).toEqual(same(plain));
      expect(() => run({ checkpoint: { dir: resumeDir, identity: 'another search', everyMs: 0 } })).toThrow(
        /another scenario or other options/,
      );
    }, 300_000);
  }
});

describe('the fingerprint collision probability', () => {
  it("is TLC's optimistic estimate from the run's own counts, a probability", () => {
    const { entry, scenario } = loadScenario('scenarios/incus-hpa-check-small.yaml');
    const p = prepareCheck(entry, scenario);
    const { stats } = explore(entry.binding, p.check, { config: p.config, world: scenario.world }, p.alphabet, p.properties, {});
    const { distinct: n, generated: g } = stats;
    expect(g).toBeGreaterThan(n);
    expect(stats.fingerprint?.bits).toBe(64);
    expect(stats.fingerprint?.collisionProbability).toBe(n * ((g - n) / 2 ** 64));
    expect(stats.fingerprint!.collisionProbability).toBeGreaterThan(0);
    expect(stats.fingerprint!.collisionProbability).toBeLessThanOrEqual(1);
  });
});
