// `loopscope paths` against the REAL daemon: the Incus HPA's generated paths (xstate/graph over the
// machine with its simulated world, sim/paths/) each become a real run — the same machine with
// real actors — whose environment moves are made on the real host at the path's instants (time
// scaled from the scenario's 15 s period to 1 s), and each run must take the transitions its path
// was generated for and conform to the model (`loopscope conform`).
//
// The moves real mode makes: demand (the load driver writes memory into the pods, real/load.ts),
// kill (the pod is force-stopped from outside, as a crash leaves it), failApi (the proxy in front of
// the daemon answers the next request of the operation the model failed with an Incus error),
// restartController (the runner is stopped and a new one started: two traces, each conformed).
// Not made here, and refused if a path needs them: slowApi (the proxy has no delay), addInstance,
// deleteInstance and stress — the default scenario (incus-hpa-check-small) has none of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InspectionEvent } from 'xstate';
import { afterAll, expect, it } from 'vitest';
import { RealHpaRunner } from '../../real/hpa-runner';
import { IncusClient } from '../../real/incus';
import { LoadDriver } from '../../real/load';
import { loadScenario } from '../../sim/loops';
import type { HpaScenario } from '../../sim/loops/incus-hpa';
import { LOOPS } from '../../sim/loops/registry';
import { transitionIds } from '../../sim/paths/machine-transitions';
import type { WrittenPath } from '../../sim/paths/paths';
import { generatePaths } from '../../sim/paths/paths';
import { runCoverage } from '../../sim/paths/run-coverage';
import type { HeldRequest } from './incus-proxy';
import { startIncusProxy } from './incus-proxy';
import type { Trace } from '../../sim/trace';
import {
  ROOT,
  cleanupOwned,
  connectForSuite,
  expectConforms,
  ownedInstances,
  realConfig,
  sleep,
  socketPath,
  uniqueHpa,
  waitUntil,
  withIncus,
  MiB,
} from './real-helpers';

const hpa = uniqueHpa('pth');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-real-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REAL_PERIOD_MS = 1_000;
const REAL_LIMIT_BYTES = 64 * MiB;

/** Which request of the real loop an operation's failure stands for (real/hpa-actors: observe lists, createPod posts, deletePod stops and deletes). */
const REQUEST_OF: Record<string, (r: HeldRequest) => boolean> = {
  observe: (r) => r.method === 'GET' && r.path.startsWith('/1.0/instances'),
  createPod: (r) => r.method === 'POST' && r.path.startsWith('/1.0/instances'),
  deletePod: (r) => (r.method === 'DELETE' || (r.method === 'PUT' && r.path.endsWith('/state'))) && r.path.startsWith('/1.0/instances/'),
};

/** A real move: what the path's timeline entry does on the real host. */
type RealMove = { at: number } & (
  | { kind: 'demand'; bytes: number }
  | { kind: 'kill' }
  | { kind: 'failApi'; calls: number; operation: string }
  | { kind: 'restartController' }
);

/**
 * The path's moves for real mode. A failApi fails "the next N calls" of the simulated world; which
 * call that is depends on timing, so the real move fails the next request of the operation the
 * model's own run of this scenario failed (its next error frame after the move).
 */
function realMoves(path: WrittenPath): { scenario: HpaScenario; moves: RealMove[] } {
  const { entry, scenario: loaded } = loadScenario(path.scenario);
  const scenario = loaded as HpaScenario; // incus-hpa's parser returns an HpaScenario (sim/loops/incus-hpa.ts)
  const frames = runCoverage(entry, loaded).trace.frames;
  let moveFrame = 0;
  const moves = scenario.timeline.map((e): RealMove => {
    if ('config' in e) throw new Error(`${path.name}: a config change is not a move this test makes`);
    moveFrame = frames.findIndex((f, i) => i > moveFrame && (f.event === 'world.timeline' || f.event === 'controller.restart'));
    const f = e.fault;
    const at = (e.at * REAL_PERIOD_MS) / scenario.config.periodMs;
    if (f.kind === 'demand') return { at, kind: 'demand', bytes: scaled(f.bytes, scenario) };
    if (f.kind === 'kill') return { at, kind: 'kill' };
    if (f.kind === 'restartController') return { at, kind: 'restartController' };
    if (f.kind === 'failApi') {
      const failed = frames.slice(moveFrame).find((x) => x.event.startsWith('xstate.error.actor.'));
      if (!failed) throw new Error(`${path.name}: the model's run has no failed operation after failApi`);
      return { at, kind: 'failApi', calls: f.calls, operation: failed.event.slice('xstate.error.actor.'.length) };
    }
    throw new Error(`${path.name}: real mode does not make the move ${f.kind} here (see the file's header)`);
  });
  return { scenario, moves };
}

/** Bytes as a share of the pod's memory limit: the real pods are smaller than the simulated ones. */
const scaled = (bytes: number, scenario: HpaScenario) => Math.round((bytes / scenario.config.limitsMemoryBytes) * REAL_LIMIT_BYTES);

withIncus.describe("loopscope paths: the Incus HPA's generated paths on real Incus", () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });

  const { scenario } = loadScenario(join(ROOT, 'scenarios', LOOPS['incus-hpa'].pathScenario));
  const report = generatePaths(LOOPS['incus-hpa'], scenario, { cover: 'transitions', out: dir });

  it("the paths cover every transition a scenario can reach in the HPA's world", () => {
    expect(report.coverage.generatedOfPlaceable.percent).toBe(100);
    expect(report.paths.length).toBeGreaterThan(1);
  });

  for (const path of report.paths) {
    it(`${path.name}: takes ${path.targets.length} transition(s) on real Incus and conforms`, async () => {
      const { scenario: sim, moves: timeline } = realMoves(path);
      // Moves of one instant happen with no step of the machine between them (the simulator applies them
      // all, then the controller steps). The real machine runs meanwhile: a failure armed before a restart
      // of the same instant would reach the old copy's observe, not the new one's. Restarts go first.
      const moves = [...timeline].sort(
        (a, b) => a.at - b.at || Number(b.kind === 'restartController') - Number(a.kind === 'restartController'),
      );
      const scale = REAL_PERIOD_MS / sim.config.periodMs;
      const config = realConfig(hpa, {
        ...sim.config,
        name: hpa.name,
        namePrefix: hpa.prefix,
        periodMs: REAL_PERIOD_MS,
        limitsMemoryBytes: REAL_LIMIT_BYTES,
        backoffInitialMs: Math.round(sim.config.backoffInitialMs * scale),
        backoffMaxMs: Math.round(sim.config.backoffMaxMs * scale),
        downscaleStabilizationMs: Math.round(sim.config.downscaleStabilizationMs * scale),
      });
      // The scenario's world: one owned pod (pod-a) running, the demand of its start.
      await cleanupOwned(client, hpa.name);
      const warmUp = new RealHpaRunner({ client, config, events: false });
      await warmUp.start();
      try {
        await warmUp.waitFor((s) => s.matches('waiting'), 60_000);
      } finally {
        await warmUp.stop();
      }
      const driver = new LoadDriver(client, hpa.name, 250);
      await driver.setDemand(scaled(sim.world.demandBytes, sim));
      driver.start();

      const failing = new Map<string, number>();
      // A runner's start adopts what it finds (real/adopt.ts) before its machine runs: those requests
      // are not the machine's operations, so a failure armed before a restart waits for the machine's.
      let adopting = false;
      const proxy = await startIncusProxy(
        socketPath,
        () => false,
        (r) => {
          if (adopting) return false;
          for (const [operation, left] of failing) {
            if (left > 0 && REQUEST_OF[operation]?.(r)) {
              failing.set(operation, left - 1);
              return true;
            }
          }
          return false;
        },
      );
      const proxied = await IncusClient.connect({ socketPath: proxy.socketPath });
      const taken = new Set<string>();
      const inspect = {
        next: (e: InspectionEvent) => {
          if (e.type === '@xstate.microstep') for (const id of transitionIds(e._transitions)) taken.add(id);
        },
      };
      // The GC of stopped pods stays out of the way: the loop itself must delete a killed pod.
      const start = () => new RealHpaRunner({ client: proxied, config, events: false, gcGraceMs: 600_000, inspect, scenario: path.name });
      const traces: Trace[] = [];
      let runner = start();
      const begin = async (r: RealHpaRunner) => {
        adopting = true;
        try {
          await r.start();
        } finally {
          adopting = false;
        }
      };
      try {
        await begin(runner);
        const t0 = Date.now();
        for (const move of moves) {
          await sleep(Math.max(0, t0 + move.at - Date.now())); // not a wait: paces the path's moves in real time
          if (move.kind === 'demand') await driver.setDemand(move.bytes);
          else if (move.kind === 'kill') {
            const pod = (await ownedInstances(client, hpa.name)).find((i) => i.status === 'Running');
            expect(pod, 'an owned pod to kill').toBeDefined();
            await client.updateInstanceState(pod!.name, { action: 'stop', force: true });
          } else if (move.kind === 'failApi') failing.set(move.operation, (failing.get(move.operation) ?? 0) + move.calls);
          else {
            await runner.stop();
            traces.push(runner.trace());
            runner = start();
            await begin(runner);
          }
        }
        await waitUntil(
          `${path.name}'s transitions: ${path.targets.join('; ')}`,
          async () => path.targets.every((t) => taken.has(t)),
          30_000,
          100,
        );
      } finally {
        await runner.stop();
        traces.push(runner.trace());
        await driver.stop();
        await proxied.close();
        await proxy.close();
      }
      expect(path.targets.filter((t) => !taken.has(t))).toEqual([]);
      traces.forEach((trace, i) => expectConforms(trace, `${path.name}-${i + 1}`));
    }, 120_000);
  }
});
