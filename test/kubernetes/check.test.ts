import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RECONCILER_NAMES } from '../../machines/kubernetes';
import type { CheckRun } from '../../sim/check/check';
import { checkScenario } from '../../sim/check/check';
import type { PathStep, VerdictStatus } from '../../sim/check/model';
import { loadScenario, parseScenarioText } from '../../sim/loops';
import { InputError } from '../../sim/scenario/errors';
import { envMoves } from '../check/check-run';

/**
 * The explorer on every kubernetes-check-* scenario: a complete search, the distinct-state count,
 * every verdict and each shortest counterexample (its length and the environment moves it uses)
 * pinned — a change in the loop's semantics, its moves or its canonical key changes one of these.
 */
interface Pin {
  distinct: number;
  verdicts: Record<string, VerdictStatus>;
  promised: string[];
  counterexamples: Record<string, { steps: number; moves: string[] }>;
}

// Distinct counts re-pinned for controller-runtime v0.23's priority queue (the default since the
// queue follows v0.23): one item per key absorbs a pending delayed requeue into an immediate add, and
// the key now tells items' priorities (initial list / resync at LowPriority). Verdicts and
// counterexamples are unchanged.
const PINS: Record<string, Pin> = {
  // The finalizer's cleanup reads a cache that does not yet show the Deployment it just created.
  'scenarios/kubernetes-check-application.yaml': {
    distinct: 3077,
    verdicts: { 'cleanup-before-finalizer': 'violated', 'deletes-application': 'holds', converges: 'holds' },
    promised: ['cleanup-before-finalizer', 'converges'],
    counterexamples: { 'cleanup-before-finalizer': { steps: 15, moves: ['kubectl delete application/shop'] } },
  },
  'scenarios/kubernetes-check-composite.yaml': {
    distinct: 17561,
    verdicts: { 'one-pod': 'holds', recreates: 'holds', converges: 'holds' },
    promised: ['one-pod', 'converges'],
    counterexamples: {},
  },
  'scenarios/kubernetes-check-database.yaml': {
    distinct: 3386,
    verdicts: { 'one-primary': 'holds', 'fails-over': 'holds', converges: 'holds' },
    promised: ['one-primary', 'converges'],
    counterexamples: {},
  },
  'scenarios/kubernetes-check-decorator.yaml': {
    distinct: 8667,
    verdicts: { 'one-attachment': 'holds', decorates: 'holds', converges: 'holds' },
    promised: ['one-attachment', 'converges'],
    counterexamples: {},
  },
  // Rollover: a template change reaches the controller before its first ReplicaSet does.
  'scenarios/kubernetes-check-deployment.yaml': {
    distinct: 20944,
    verdicts: { 'max-surge': 'violated', 'min-available': 'holds', 'rolls-out': 'holds', converges: 'holds' },
    promised: ['max-surge', 'min-available', 'converges'],
    counterexamples: {
      'max-surge': { steps: 20, moves: ['kubectl set image deployment/web nginx:1.27', "controller crash (after a reconcile's writes)"] },
    },
  },
  'scenarios/kubernetes-check-hpa.yaml': {
    distinct: 17166,
    verdicts: { 'within-bounds': 'holds', 'scales-to-max': 'holds', converges: 'holds' },
    promised: ['within-bounds', 'converges'],
    counterexamples: {},
  },
  'scenarios/kubernetes-check-queue-scaler.yaml': {
    distinct: 1169,
    verdicts: { 'within-bounds': 'holds', 'scales-up': 'holds', converges: 'holds' },
    promised: ['within-bounds', 'converges'],
    counterexamples: {},
  },
  // kubernetes/kubernetes#129795: expired expectations let a sync act on a lagging cache.
  'scenarios/kubernetes-check-replicaset-expired.yaml': {
    distinct: 8096,
    verdicts: {
      'no-extra-pods': 'violated',
      'no-surplus-at-rest': 'holds',
      'reaches-replicas': 'holds',
      'waits-for-expectations': 'holds',
      converges: 'holds',
    },
    promised: ['no-extra-pods', 'no-surplus-at-rest', 'converges'],
    counterexamples: {
      'no-extra-pods': { steps: 20, moves: ['stale cache: Pod watch +360s for 1s', 'kubectl scale replicaset/web --replicas=2'] },
    },
  },
  // A crash with the create on the wire: it lands after the restarted controller's relist, whose new
  // expectations know nothing of it, so it creates a second pod (the surplus goes at the next sync).
  'scenarios/kubernetes-check-replicaset-crash-mid-write.yaml': {
    distinct: 1143,
    verdicts: {
      'no-extra-pods': 'violated',
      'no-surplus-at-rest': 'holds',
      'reaches-replicas': 'holds',
      'waits-for-expectations': 'holds',
      converges: 'holds',
    },
    promised: ['no-extra-pods', 'no-surplus-at-rest', 'converges'],
    counterexamples: { 'no-extra-pods': { steps: 9, moves: ['controller crash mid-write (the write lands)'] } },
  },
  // Without expectations the controller's own status write re-enqueues it onto a stale cache.
  'scenarios/kubernetes-check-replicaset-no-expectations.yaml': {
    distinct: 7681,
    verdicts: { 'no-extra-pods': 'violated', 'no-surplus-at-rest': 'holds', 'reaches-replicas': 'holds', converges: 'holds' },
    promised: ['no-surplus-at-rest', 'converges'],
    counterexamples: { 'no-extra-pods': { steps: 11, moves: ['stale cache: Pod watch +2s for 5s'] } },
  },
  'scenarios/kubernetes-check-replicaset.yaml': {
    distinct: 3811,
    verdicts: {
      'no-extra-pods': 'holds',
      'no-surplus-at-rest': 'holds',
      'reaches-replicas': 'holds',
      'waits-for-expectations': 'holds',
      converges: 'holds',
    },
    promised: ['no-extra-pods', 'no-surplus-at-rest', 'converges'],
    counterexamples: {},
  },
};

const CHECK_FILES = readdirSync('scenarios')
  .filter((f) => f.startsWith('kubernetes-check-') && f.endsWith('.yaml'))
  .map((f) => `scenarios/${f}`)
  .sort();

const movesOf = (run: CheckRun, path: readonly PathStep[]) => envMoves(run, path).map((m) => m.label);

describe('loopscope check on the kubernetes-check scenarios', () => {
  it('every kubernetes-check scenario is pinned here, and every controller has one', () => {
    expect(Object.keys(PINS).sort()).toEqual(CHECK_FILES);
    const controllers = new Set(CHECK_FILES.map((f) => /^controller: (\S+)$/m.exec(readFileSync(f, 'utf8'))?.[1]));
    expect([...controllers].sort()).toEqual([...RECONCILER_NAMES].sort());
  });

  for (const file of CHECK_FILES) {
    it(
      file,
      () => {
        const pin = PINS[file];
        expect(pin, `${file} is not pinned`).toBeDefined();
        const { entry, scenario } = loadScenario(file);
        const run = checkScenario(entry, scenario);
        expect(run.result.stats.complete).toBe(true);
        expect(run.result.stats.distinct).toBe(pin!.distinct);
        expect(Object.fromEntries(run.result.verdicts.map((v) => [v.property.name, v.status]))).toEqual(pin!.verdicts);
        expect([...run.promises].sort()).toEqual([...pin!.promised].sort());
        const counterexamples = Object.fromEntries(
          run.counterexamples.map((c) => [c.property, { steps: c.path.length, moves: movesOf(run, c.path) }]),
        );
        expect(counterexamples).toEqual(pin!.counterexamples);
        for (const c of run.counterexamples) {
          // A normal Runner trace, plain JSON as the lab loads it, its last mark naming the broken claim.
          expect(JSON.parse(JSON.stringify(c.trace))).toEqual(c.trace);
          expect(c.trace.loop).toBe('kubernetes');
          expect(c.trace.frames.some((f) => f.note?.includes(`✗ ${c.property}`))).toBe(true);
        }
      },
      120_000,
    );
  }
});

/** The ReplicaSet check scenario, with its timeline replaced and its cluster/objects edited. */
function variant(edit: (yaml: string) => string): string {
  return edit(readFileSync('scenarios/kubernetes-check-replicaset.yaml', 'utf8'));
}

function rejection(yaml: string): InputError {
  const { entry, scenario } = parseScenarioText('bad-check.yaml', 'bad-check', yaml);
  try {
    checkScenario(entry, scenario, { maxStates: 1 });
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected the check to reject the scenario');
}

describe('check scenarios the explorer cannot treat are rejected, naming file, field and expectation', () => {
  const timeline = (entries: string[]) => (yaml: string) =>
    yaml.replace(/timeline:[\s\S]*$/, `timeline:\n${entries.map((e) => `  - ${e}\n`).join('')}`);

  it('more than 8 moves', () => {
    const e = rejection(variant(timeline(Array.from({ length: 9 }, (_, i) => `{ at: ${i}s, failWrites: 1 }`))));
    expect(e.file).toBe('bad-check.yaml');
    expect(e.field).toBe('timeline');
    expect(e.expected).toMatch(/at most 8 entries.*got 9/);
  });

  it('a reordered watch (one random draw, not every order)', () => {
    const e = rejection(variant(timeline(['{ at: 1s, reorderWatch: { count: 2, upTo: 1s } }'])));
    expect(e.field).toBe('timeline[0].reorderWatch');
    expect(e.expected).toMatch(/no reorderWatch/);
  });

  it('a lost watch event with no relist to repair it', () => {
    const e = rejection(
      variant((y) => timeline(['{ at: 1s, dropWatch: { kind: Pod, count: 1 } }'])(y.replace('resync: 60s', 'resync: 0s'))),
    );
    expect(e.field).toBe('cluster.resync');
    expect(e.expected).toMatch(/resync period with dropWatch/);
  });

  it('minReadySeconds (the key keeps readiness times as an order only)', () => {
    const e = rejection(variant((y) => y.replace('      replicas: 1\n', '      replicas: 1\n      minReadySeconds: 5\n')));
    expect(e.field).toBe('objects.ReplicaSet/web.spec.minReadySeconds');
  });

  it('more than 3 nodes', () => {
    const e = rejection(
      variant((y) =>
        y.replace(
          '    - { name: node-2, cpu: "1" }\n',
          '    - { name: node-2, cpu: "1" }\n    - { name: node-3, cpu: "1" }\n    - { name: node-4, cpu: "1" }\n',
        ),
      ),
    );
    expect(e.field).toBe('cluster.nodes');
    expect(e.expected).toMatch(/at most 3 nodes for check, got 4/);
  });

  it('a queue with a steady inflow (its length would never repeat)', () => {
    const yaml = readFileSync('scenarios/kubernetes-check-queue-scaler.yaml', 'utf8').replace('arrivalsPerSec: 0,', 'arrivalsPerSec: 2,');
    const e = rejection(yaml);
    expect(e.field).toBe('queues[0].arrivalsPerSec');
    expect(e.expected).toMatch(/expected 0 for check/);
  });
});
