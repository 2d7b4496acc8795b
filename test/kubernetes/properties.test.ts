import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ControllerConfig } from '../../machines/kubernetes';
import { viewOf } from '../../sim/check/counterexample';
import type { CheckProperty } from '../../sim/check/model';
import { kubernetesBinding, parseKubernetesScenario } from '../../sim/loops/kubernetes';
import { noSurplusAtRest, replicaSetConverges } from '../../sim/properties/kubernetes';
import { Runner } from '../../sim/runner';
import type { KubeWorld } from '../../sim/worlds/kubernetes';
import { propertyRuns } from '../property-runs';
import type { ControllerContext } from '../../machines/kubernetes';

const numRuns = propertyRuns();
/** About 25 ms (safety) and 40 ms (determinism) per run on one core: room for more runs with the flag. */
const timeout = 30_000 + numRuns * 100;

/**
 * K, the quiet phase after the last fault, in which the ReplicaSet must converge:
 *  - 5 min ExpectationsTimeout (controller_utils.go): a dropped ADDED/DELETED watch event for a pod
 *    the controller created/deleted leaves its expectations unmet until they expire;
 *  - + 60 s resync (set below): the relist that repairs the dropped event in the cache;
 *  - + 80 s: the longest CrashLoopBackOff the timeline can cause (≤ 4 crashes: 10, 20, 40, 80 s);
 *  - + 40 s slack for watch heartbeat (10 s), scheduling, start (2 s) and readiness (3 s).
 */
const RESYNC_S = 60;
const QUIET_MS = 5 * 60_000 + RESYNC_S * 1000 + 80_000 + 40_000;

type Change = Record<string, unknown>;
interface Entry {
  at: number;
  change: Change;
}

const nodeNames = (n: number) => Array.from({ length: n }, (_, i) => `node-${i + 1}`);

const faultArb = (nodes: number): fc.Arbitrary<Entry[]> => {
  const at = fc.integer({ min: 1, max: 180 });
  const kind = fc.constantFrom<string | undefined>('Pod', 'ReplicaSet', undefined);
  const withKind = (k: string | undefined, rest: Change): Change => (k ? { kind: k, ...rest } : rest);
  const one: fc.Arbitrary<Entry[]> = fc.oneof(
    fc
      .record({ at, replicas: fc.integer({ min: 0, max: 6 }) })
      .map(({ at, replicas }) => [{ at, change: { scale: { kind: 'ReplicaSet', name: 'web', replicas } } }]),
    fc
      .record({ at, k: kind, by: fc.integer({ min: 1, max: 30 }), for: fc.integer({ min: 1, max: 60 }) })
      .map((r) => [{ at: r.at, change: { delayWatch: withKind(r.k, { by: `${r.by}s`, for: `${r.for}s` }) } }]),
    fc
      .record({ at, k: kind, count: fc.integer({ min: 1, max: 3 }) })
      .map((r) => [{ at: r.at, change: { dropWatch: withKind(r.k, { count: r.count }) } }]),
    fc
      .record({ at, count: fc.integer({ min: 1, max: 5 }), upTo: fc.integer({ min: 1, max: 10 }) })
      .map((r) => [{ at: r.at, change: { reorderWatch: { count: r.count, upTo: `${r.upTo}s` } } }]),
    at.map((a) => [{ at: a, change: { crashPod: { app: 'web' } } }]),
    at.map((a) => [{ at: a, change: { restartController: true } }]),
    // A permanent failure only on node-2/3, so the pods always have somewhere to go; any node may
    // fail and come back within 300 s (its kubelet then resyncs its pods: sim/worlds/kubernetes
    // kubeletResync — found by this property: 1 node, scale 0→1 at 1s, nodeFail 2s, nodeRecover 4s
    // once left the pod Pending for good).
    fc.record({ at, node: fc.constantFrom(...nodeNames(nodes)), back: fc.integer({ min: 1, max: 300 }) }).map((r) => [
      { at: r.at, change: { nodeFail: r.node } },
      { at: r.at + r.back, change: { nodeRecover: r.node } },
    ]),
    ...(nodes > 1
      ? [fc.record({ at, node: fc.constantFrom(...nodeNames(nodes).slice(1)) }).map((r) => [{ at: r.at, change: { nodeFail: r.node } }])]
      : []),
  );
  return fc
    .array(one, { maxLength: 6 })
    .map((xs) => xs.flat())
    .filter((es) => es.filter((e) => 'crashPod' in e.change).length <= 4);
};

const scenarioArb = fc
  .record({ nodes: fc.integer({ min: 1, max: 3 }), replicas: fc.integer({ min: 0, max: 6 }), seed: fc.nat(1_000) })
  .chain((s) => faultArb(s.nodes).map((timeline) => ({ ...s, timeline })));

interface Generated {
  nodes: number;
  replicas: number;
  seed: number;
  timeline: Entry[];
}

/** node-monitor-grace-period (40 s) + the not-ready NoExecute toleration (300 s): when a failed node's pods are evicted. */
const EVICTION_MS = 40_000 + 300_000;

/** When the faults stop acting: a node failure acts until its pods are evicted. */
const lastFaultMs = (s: Generated) => Math.max(0, ...s.timeline.map((e) => e.at * 1000 + ('nodeFail' in e.change ? EVICTION_MS : 0)));

/** The scenario document, as a user would write it in YAML. */
function scenarioDoc(s: Generated): unknown {
  return {
    loop: 'kubernetes',
    seed: s.seed,
    controller: 'replicaset',
    duration: `${(lastFaultMs(s) + QUIET_MS) / 1000}s`,
    cluster: { nodes: nodeNames(s.nodes).map((name) => ({ name, cpu: '2' })), resync: `${RESYNC_S}s` },
    objects: [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web' },
        spec: {
          replicas: s.replicas,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
          },
        },
      },
    ],
    timeline: [...s.timeline].sort((a, b) => a.at - b.at).map((e) => ({ at: `${e.at}s`, ...e.change })),
  };
}

function runnerFor(s: Generated, recordFrames = false) {
  const scenario = parseKubernetesScenario('generated.yaml', 'generated', scenarioDoc(s));
  const runner = new Runner(kubernetesBinding, {
    scenario: scenario.name,
    seed: scenario.seed,
    world: scenario.world,
    config: scenario.config,
    timeline: scenario.timeline,
    recordFrames,
  });
  return { runner, durationMs: scenario.durationMs };
}

/** The same property objects the explorer checks (sim/properties/kubernetes.ts), along one Runner run. */
const SAFETY = noSurplusAtRest;
const CONVERGES = replicaSetConverges(QUIET_MS, `${QUIET_MS / 1000}s`);

interface Failure {
  property: string;
  t: number;
  world: string;
}

/** Runs the scenario item by item; checks safety after each, convergence at the end. */
function check(s: Generated): Failure[] {
  const { runner, durationMs } = runnerFor(s);
  const out: Failure[] = [];
  const fail = (p: CheckProperty<KubeWorld, ControllerConfig, ControllerContext>) =>
    out.push({ property: p.name, t: runner.t, world: JSON.stringify(runner.binding.world.summary(runner.world, runner.t)) });
  for (let next = runner.nextEventAt; next !== undefined && next <= durationMs; next = runner.nextEventAt) {
    runner.processNext();
    if (!SAFETY.holds(viewOf(runner))) {
      fail(SAFETY);
      break;
    }
  }
  runner.run(durationMs);
  if (!CONVERGES.holds(viewOf(runner))) fail(CONVERGES);
  return out;
}

const explain = (s: Generated, fs: Failure[]) =>
  `${fs.map((f) => `${f.property} @${f.t}ms: ${f.world}`).join('\n')}\nscenario: ${JSON.stringify(scenarioDoc(s))}`;

describe('ReplicaSet controller properties (generated scenarios)', () => {
  it(
    `safety and bounded convergence (K = ${QUIET_MS / 1000}s quiet after the last fault took effect), ${numRuns} runs`,
    () => {
      fc.assert(
        fc.property(scenarioArb, (s) => {
          const fs = check(s);
          if (fs.length) throw new Error(explain(s, fs));
        }),
        { numRuns },
      );
    },
    timeout,
  );

  it(
    `determinism: same scenario and seed → identical trace JSON, ${numRuns} runs`,
    () => {
      fc.assert(
        fc.property(scenarioArb, (s) => {
          const traceJson = () => {
            const { runner, durationMs } = runnerFor(s, true);
            runner.run(durationMs);
            return JSON.stringify(runner.trace());
          };
          expect(traceJson()).toBe(traceJson());
        }),
        { numRuns },
      );
    },
    timeout,
  );
});
