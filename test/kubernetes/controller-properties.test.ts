import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ControllerConfig, ReconcilerName } from '../../machines/kubernetes';
import { DEFAULT_CONTROLLER_CONFIG } from '../../machines/kubernetes';
import { viewOf } from '../../sim/check/counterexample';
import type { CheckProperty } from '../../sim/check/model';
import { kubernetesBinding, parseKubernetesScenario } from '../../sim/loops/kubernetes';
import { kubernetesProperties, kubernetesPromises } from '../../sim/properties/kubernetes';
import { Runner } from '../../sim/runner';
import type { KubeWorld } from '../../sim/worlds/kubernetes';
import { findRuns, propertyRuns } from '../property-runs';
import type { ControllerContext } from '../../machines/kubernetes';

/**
 * The Deployment, Database and Application claims over generated scenarios: the SAME CheckProperty
 * objects the explorer checks (kubernetesProperties, with the same bound K), evaluated along Runner
 * runs — `always` after every step, `eventually` at every step from K after the last move on.
 * A promised claim must hold in every run; a claim the explorer refutes is found here too.
 */
const numRuns = propertyRuns();
const timeout = 60_000 + numRuns * 150;

type Property = CheckProperty<KubeWorld, ControllerConfig, ControllerContext>;
interface Move {
  at: number;
  change: Record<string, unknown>;
}

/** Runs the scenario; returns the first broken claim (name, time) or null. */
function firstFailure(doc: Record<string, unknown>, names?: readonly string[]): { property: string; t: number } | null {
  const scenario = parseKubernetesScenario('generated.yaml', 'generated', doc);
  const alphabet = scenario.timeline.map((entry, index) => ({ index, label: '', entry }));
  const all = kubernetesProperties(scenario.config, alphabet, undefined, scenario.world);
  const props = all.filter((p) => p.kind !== 'sometimes' && (!names || names.includes(p.name)));
  const last = Math.max(0, ...scenario.timeline.map((e) => e.at));
  const horizon = last + Math.max(0, ...props.map((p) => p.withinMs ?? 0));
  const runner = new Runner(kubernetesBinding, {
    scenario: 'generated',
    seed: scenario.seed,
    world: scenario.world,
    config: scenario.config,
    timeline: scenario.timeline,
    recordFrames: false,
  });
  const check = (p: Property) => (p.kind === 'always' || runner.t >= last + (p.withinMs ?? 0)) && !p.holds(viewOf(runner));
  for (let next = runner.nextEventAt; next !== undefined && next <= horizon; next = runner.nextEventAt) {
    runner.processNext();
    const broken = props.find(check);
    if (broken) return { property: broken.name, t: runner.t };
  }
  runner.run(horizon);
  const broken = props.find((p) => p.kind === 'eventually' && !p.holds(viewOf(runner)));
  return broken ? { property: broken.name, t: runner.t } : null;
}

/** A time in ms; often within the first 200 ms, where the controller's first reconciles race the watch. */
const at = (maxS: number) => fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: maxS * 1000 }));
const timeline = (moves: Move[]) => [...moves].sort((a, b) => a.at - b.at).map((m) => ({ at: m.at, ...m.change }));
const cluster = {
  nodes: [
    { name: 'node-1', cpu: '2' },
    { name: 'node-2', cpu: '2' },
  ],
  heartbeat: '60s',
  resync: '60s',
};

// ---- Deployment ----------------------------------------------------------------------------

const deploymentArb = fc.record({
  replicas: fc.integer({ min: 1, max: 3 }),
  surge: fc.integer({ min: 0, max: 1 }),
  unavailable: fc.integer({ min: 0, max: 1 }),
  moves: fc.array(
    fc.oneof(
      at(20).map((t): Move => ({ at: t, change: { setImage: { deployment: 'web', image: 'nginx:1.27' } } })),
      at(20).map((t): Move => ({ at: t, change: { restartController: true } })),
      fc
        .record({ t: at(20), by: fc.integer({ min: 1, max: 5 }), for: fc.integer({ min: 1, max: 10 }) })
        .map((r): Move => ({ at: r.t, change: { delayWatch: { kind: 'ReplicaSet', by: `${r.by}s`, for: `${r.for}s` } } })),
    ),
    { maxLength: 3 },
  ),
});

const deploymentDoc = (g: { replicas: number; surge: number; unavailable: number; moves: Move[] }) => ({
  loop: 'kubernetes',
  seed: 1,
  controller: 'deployment',
  builtins: ['replicaset'],
  cluster,
  objects: [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: g.replicas,
        selector: { matchLabels: { app: 'web' } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: g.surge, maxUnavailable: g.unavailable } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.26', resources: { requests: { cpu: '100m' } } }] },
        },
      },
    },
  ],
  timeline: timeline(g.moves),
});

// ---- Database --------------------------------------------------------------------------------

const databaseArb = fc.array(
  fc.oneof(
    fc
      .record({ t: at(60), pod: fc.constantFrom('orders-0', 'orders-1') })
      .map((r): Move => ({ at: r.t, change: { crashPod: { name: r.pod } } })),
    at(60).map((t): Move => ({ at: t, change: { restartController: true } })),
    fc
      .record({ t: at(60), by: fc.integer({ min: 1, max: 5 }), for: fc.integer({ min: 1, max: 10 }) })
      .map((r): Move => ({ at: r.t, change: { delayWatch: { kind: 'Pod', by: `${r.by}s`, for: `${r.for}s` } } })),
  ),
  { maxLength: 4 },
);

const databaseDoc = (moves: Move[]) => ({
  loop: 'kubernetes',
  seed: 1,
  controller: 'database',
  options: { failoverAfterMs: 5000 },
  cluster,
  objects: [
    {
      apiVersion: 'example.com/v1',
      kind: 'Database',
      metadata: { name: 'orders' },
      spec: { image: 'postgres:16', replicas: 1, storage: '1Gi' },
    },
  ],
  timeline: timeline(moves),
});

// ---- Application -----------------------------------------------------------------------------

const applicationArb = fc.array(
  fc.oneof(
    at(2).map((t): Move => ({ at: t, change: { delete: { kind: 'Application', name: 'shop', namespace: 'shop' } } })),
    at(2).map((t): Move => ({ at: t, change: { restartController: true } })),
  ),
  { minLength: 1, maxLength: 2 },
);

const applicationDoc = (moves: Move[]) => ({
  loop: 'kubernetes',
  seed: 1,
  controller: 'application',
  cluster: { nodes: [{ name: 'node-1', cpu: '1' }], heartbeat: '60s', resync: '60s' },
  objects: [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    {
      apiVersion: 'minetto.dev/v1alpha1',
      kind: 'Application',
      metadata: { name: 'shop', namespace: 'shop' },
      spec: { image: 'nginx:1.27', replicas: 2, port: 80 },
    },
  ],
  timeline: timeline(moves),
});

const promisedOf = (reconciler: ReconcilerName) => kubernetesPromises({ ...DEFAULT_CONTROLLER_CONFIG, reconciler });

describe("Kubernetes controller claims over generated scenarios (the explorer's property objects)", () => {
  it(
    `Deployment: min-available and converges hold (promised), ${numRuns} runs`,
    () => {
      fc.assert(
        fc.property(deploymentArb, (g) => {
          const failure = firstFailure(deploymentDoc(g), ['min-available', 'converges']);
          if (failure) throw new Error(`${failure.property} @${failure.t}ms: ${JSON.stringify(deploymentDoc(g))}`);
        }),
        { numRuns },
      );
    },
    timeout,
  );

  it(
    'Deployment: fast-check FINDS a max-surge counterexample too (a rollover racing the first ReplicaSet)',
    () => {
      const result = fc.check(
        fc.property(deploymentArb, (g) => firstFailure(deploymentDoc(g), ['max-surge']) === null),
        { numRuns: findRuns() },
      );
      expect(result.failed, `no counterexample in ${result.numRuns} runs (fast-check seed ${result.seed})`).toBe(true);
      expect(promisedOf('deployment')).toContain('max-surge');
    },
    timeout,
  );

  it(
    `Database: one-primary and converges hold (promised), ${numRuns} runs`,
    () => {
      fc.assert(
        fc.property(databaseArb, (moves) => {
          const failure = firstFailure(databaseDoc(moves));
          if (failure) throw new Error(`${failure.property} @${failure.t}ms: ${JSON.stringify(databaseDoc(moves))}`);
        }),
        { numRuns },
      );
    },
    timeout,
  );

  it(
    'Application: fast-check FINDS the finalizer removed before the cleanup saw the Deployment',
    () => {
      const result = fc.check(
        fc.property(applicationArb, (moves) => firstFailure(applicationDoc(moves), ['cleanup-before-finalizer']) === null),
        { numRuns: findRuns() },
      );
      expect(result.failed, `no counterexample in ${result.numRuns} runs (fast-check seed ${result.seed})`).toBe(true);
    },
    timeout,
  );

  it(
    `Application: converges holds (promised), ${numRuns} runs`,
    () => {
      fc.assert(
        fc.property(applicationArb, (moves) => {
          const failure = firstFailure(applicationDoc(moves), ['converges']);
          if (failure) throw new Error(`${failure.property} @${failure.t}ms: ${JSON.stringify(applicationDoc(moves))}`);
        }),
        { numRuns },
      );
    },
    timeout,
  );
});
