// One summary function per loop: the CLI timeline column, the lab's reading and real mode's frame
// print the same numbers for the same frame (no second average computed anywhere).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HpaContext, PolicyName } from '../../machines/incus-hpa';
import { DEFAULT_CONFIG, EMPTY_POLICY_MEMORY, POLICY_NAMES } from '../../machines/incus-hpa';
import { realHpaController } from '../../real/hpa-controller';
import type { InstanceFull } from '../../real/incus';
import { hpaSimController } from '../../sim/loops/incus-hpa-controller';
import { hpaColumns } from '../../sim/loops/incus-hpa-format';
import { systemdColumns } from '../../sim/loops/systemd-restart-format';
import { framesOf } from '../../sim/loop-frames';
import { runnerFor } from '../../sim/loops';
import type { Frame, FrameOf } from '../../sim/trace';
import { controllerOf } from '../../sim/trace';
import { parseFrame } from '../../sim/trace-schema';
import type { SimInstance } from '../../sim/worlds/incus-hpa';
import { createHpaWorld } from '../../sim/worlds/incus-hpa';
import { incusHpaNumbers } from '../../web/worlds/incus-hpa/summary';
import { unitView } from '../../web/worlds/systemd-restart/unitView';

const ROOT = join(import.meta.dirname, '..', '..');
const MiB = 1024 ** 2;

/** The "mem NN%" the CLI prints, as a number (null for "-"). */
function columnAverage(frame: Frame): number | null {
  const m = /mem +(\d+|-)%$/.exec(hpaColumns(frame));
  if (!m) throw new Error(`no average in the column "${hpaColumns(frame)}"`);
  return m[1] === '-' ? null : Number(m[1]);
}
const columnRunning = (frame: Frame) => Number(/^pods +(\d+)/.exec(hpaColumns(frame))![1]);

describe('incus-hpa: the CLI column, the lab and the decision agree on every frame', () => {
  for (const scenario of ['talk-lab', 'unowned-neighbour', 'demand-ramp']) {
    for (const policy of POLICY_NAMES) {
      it(`${scenario} · ${policy}`, () => {
        const { runner } = runnerFor(join(ROOT, 'scenarios', `${scenario}.yaml`), { policy });
        runner.run(30 * 60_000);
        let decisions = 0;
        let averages = 0;
        for (const frame of framesOf('incus-hpa', runner.binding.loop, runner.frames)!) {
          const c = controllerOf(frame, 'incus-hpa')!;
          const lab = incusHpaNumbers(frame);
          expect(columnAverage(frame)).toBe(c.averagePercent);
          expect(lab.avg).toBe(c.averagePercent);
          expect(columnRunning(frame)).toBe(c.pods.running);
          expect(lab.running).toBe(c.pods.running);
          expect(lab.threshold).toBe(c.threshold);
          if (c.averagePercent !== null) averages++;
          // Right after an observation the policy decided on exactly what the frame shows.
          if (frame.event === 'xstate.done.actor.observe' && c.decision) {
            expect(c.averagePercent).toBe(c.decision.averagePercent);
            decisions++;
          }
        }
        expect(decisions).toBeGreaterThan(10);
        expect(averages).toBeGreaterThan(10);
      });
    }
  }
});

/** An instance as GET /1.0/instances?recursion=2 returns it (the fields real mode reads). */
function instance(
  name: string,
  owner: string | null,
  status: 'Running' | 'Starting' | 'Stopping',
  usage: number,
  total: number,
): InstanceFull {
  return {
    name,
    description: '',
    status,
    status_code: 103,
    type: 'container',
    architecture: 'x86_64',
    config: owner ? { 'user.loopscope.hpa': owner } : {},
    devices: {},
    profiles: ['default'],
    ephemeral: false,
    stateful: false,
    created_at: '2026-01-01T00:00:00Z',
    last_used_at: '2026-01-01T00:00:00Z',
    location: 'none',
    project: 'default',
    state: {
      status,
      status_code: 103,
      memory: { usage, usage_peak: usage, total, swap_usage: 0, swap_usage_peak: 0 },
      cpu: { usage: 0 },
      disk: null,
      network: null,
      pid: 1,
      processes: 1,
    },
  };
}

/** The same instances as a simulated world: no baseline, no demand, each using exactly `usage`. */
function simWorldOf(list: InstanceFull[]) {
  const instances: SimInstance[] = list.map((i) => ({
    name: i.name,
    owner: i.config['user.loopscope.hpa'] ?? null,
    status: i.status as SimInstance['status'],
    limitBytes: i.state!.memory.total!,
    stressBytes: i.state!.memory.usage,
    serves: false,
    createdAt: 0,
  }));
  return createHpaWorld(
    1,
    {
      hostMemoryBytes: 16 * 1024 * MiB,
      baselineBytes: 0,
      latency: { list: 1, create: 1, start: 1, stop: 1, delete: 1 },
      failureProbability: 0,
    },
    instances,
  );
}

const contextFor = (policy: PolicyName): HpaContext => ({
  config: { ...DEFAULT_CONFIG, name: 'web', namePrefix: 'pod', policy, minPods: 1, maxPods: 5 },
  observation: null,
  decision: null,
  pending: [],
  policyMemory: EMPTY_POLICY_MEMORY,
  policyFailed: false,
  consecutiveErrors: 0,
  lastError: null,
  periods: 0,
});

describe('incus-hpa: a real frame and a simulated one over the same instances print the same numbers', () => {
  // Owned pods at 61%, 33.4% and 90% (floors differ from the average of floors), one starting,
  // one stopping, and a database nobody's HPA owns.
  const list = [
    instance('poda', 'web', 'Running', 610 * MiB, 1000 * MiB),
    instance('podb', 'web', 'Running', 334 * MiB, 1000 * MiB),
    instance('podc', 'web', 'Running', 900 * MiB, 1000 * MiB),
    instance('podd', 'web', 'Starting', 0, 1000 * MiB),
    instance('pode', 'web', 'Stopping', 0, 1000 * MiB),
    instance('db', null, 'Running', 900 * MiB, 1000 * MiB),
  ];
  for (const policy of POLICY_NAMES) {
    it(policy, () => {
      const ctx = contextFor(policy);
      const t = 60_000;
      const real = realHpaController(ctx, list, t, Date.parse('2026-01-01T00:00:00Z'));
      const sim = hpaSimController(ctx, simWorldOf(list), t);
      expect(real).toEqual(sim);
      expect(real.pods).toEqual({ running: 3, starting: 1, stopping: 1 });
      expect(real.averagePercent).not.toBeNull();
      // The frame real mode records, read by the CLI column and by the lab.
      const frame: FrameOf<'incus-hpa'> = {
        t,
        state: 'comparing',
        phase: 'compare',
        event: 'xstate.done.actor.observe',
        world: { demand: 0, pods: [], apiCalls: 0, unownedTouched: 0 },
        controller: real,
      };
      expect(parseFrame('incus-hpa', frame).ok).toBe(true);
      expect(columnAverage(frame)).toBe(real.averagePercent);
      expect(incusHpaNumbers(frame)).toEqual({ running: 3, avg: real.averagePercent, threshold: ctx.config.memoryThreshold });
    });
  }
  it('the policies differ in how they average, and each frame says which one it used', () => {
    const avg = (p: PolicyName) => realHpaController(contextFor(p), list, 0, 0).averagePercent;
    // seed: floor of the mean of floored percents; fixed: floor of the mean; kubernetes: summed usage over summed requests.
    expect([avg('seed'), avg('fixed'), avg('kubernetes')]).toEqual([61, 61, 61]);
    const uneven = [instance('poda', 'web', 'Running', 999 * MiB, 1000 * MiB), instance('podb', 'web', 'Running', 1 * MiB, 3 * MiB)];
    const of = (p: PolicyName) => realHpaController(contextFor(p), uneven, 0, 0).averagePercent;
    expect([of('seed'), of('fixed'), of('kubernetes')]).toEqual([66, 66, 99]);
  });
});

describe('systemd-restart: the CLI column and the lab print the same unit status', () => {
  for (const scenario of ['systemd-crash-loop', 'systemd-watchdog']) {
    it(scenario, () => {
      const { runner, scenario: s } = runnerFor(join(ROOT, 'scenarios', `${scenario}.yaml`));
      runner.run(s.durationMs);
      const states = new Set<string>();
      for (const frame of framesOf('systemd-restart', runner.binding.loop, runner.frames)!) {
        const view = unitView(frame);
        const c = controllerOf(frame, 'systemd-restart')!;
        expect(systemdColumns(frame).startsWith(`${view.status!.active} (${view.status!.sub})`)).toBe(true);
        expect({ result: view.result, nRestarts: view.nRestarts }).toEqual({ result: c.result, nRestarts: c.nRestarts });
        states.add(view.status!.active);
      }
      expect(states.size).toBeGreaterThan(2);
    });
  }
});
