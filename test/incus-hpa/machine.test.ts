import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CreateInput, DeleteInput, ObserveInput, Observation } from '../../machines/incus-hpa';
import { backoffDelay, incusHpaMachine } from '../../machines/incus-hpa';
import { Runner } from '../../sim/runner';
import { hpaBinding, DEFAULT_PARAMS } from '../../sim/loops/incus-hpa';
import { createHpaWorld } from '../../sim/worlds/incus-hpa';
import type { HpaFault, HpaWorld } from '../../sim/worlds/incus-hpa';
import type { HpaConfig } from '../../machines/incus-hpa';
import type { TimelineEntry } from '../../sim/runner';
import { config, MiB } from './helpers';

const GB = 1e9;
function runner(cfg: Partial<HpaConfig>, timeline: TimelineEntry<HpaFault, HpaConfig>[] = [], stressBytes = 0) {
  const c = config({ minPods: 1, maxPods: 5, memoryThreshold: 40, limitsMemoryBytes: GB, ...cfg });
  const world: HpaWorld = createHpaWorld(1, DEFAULT_PARAMS, [
    { name: 'pod', owner: c.name, status: 'Running', limitBytes: GB, stressBytes, serves: true, createdAt: 0 },
  ]);
  return new Runner(hpaBinding, { scenario: 'test', seed: 1, world, config: c, timeline, checkpoints: true });
}

describe('incus-hpa machine', () => {
  it('goes observe → compare → act → wait → observe when it scales', () => {
    const r = runner({}, [], 900 * MiB);
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      seen.push(`${r.phase}:${r.stateValue}`);
      r.step();
    }
    expect(seen).toEqual([
      'observe:observing',
      'compare:comparing',
      'act:acting.creating',
      'wait:waiting',
      'observe:observing',
      'compare:comparing',
    ]);
    expect(r.world.instances.filter((i) => i.status === 'Running')).toHaveLength(2);
  });

  it('skips act when there is nothing to do', () => {
    const r = runner({});
    r.step(); // observing → comparing
    r.step();
    expect(r.phase).toBe('wait');
  });

  it('backs off exponentially on API errors, capped, then recovers', () => {
    const r = runner({ backoffInitialMs: 1000, backoffMaxMs: 4000 }, [{ at: 0, fault: { kind: 'failApi', calls: 5 } }]);
    const errorsAt: number[] = [];
    for (let i = 0; i < 40 && errorsAt.length < 5; i++) {
      r.processNext();
      if (r.phase === 'error' && r.frames.at(-1)?.event.startsWith('xstate.error')) errorsAt.push(r.t);
    }
    // Five failed observes; each next attempt waits 1 s, 2 s, 4 s, 4 s (cap) after the error.
    const gaps = errorsAt.slice(1).map((t, i) => t - errorsAt[i]!);
    const list = DEFAULT_PARAMS.latency.list;
    expect(gaps).toEqual([1000 + list, 2000 + list, 4000 + list, 4000 + list]);
    r.run(r.t + 10_000);
    expect(r.snapshot.context.consecutiveErrors).toBe(0);
    expect(['wait', 'observe', 'compare']).toContain(r.phase);
  });

  it('backoffDelay doubles and caps', () => {
    const c = config({ backoffInitialMs: 500, backoffMaxMs: 3000 });
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(c, n))).toEqual([500, 1000, 2000, 3000, 3000]);
  });

  it('a config update mid-run takes effect on the next period', () => {
    const r = runner({ memoryThreshold: 90 }, [], 500 * MiB); // 53% < 90%: no action
    r.run(20_000);
    expect(r.world.instances).toHaveLength(1);
    r.update({ memoryThreshold: 40 });
    expect(r.world.instances).toHaveLength(1); // nothing happens until the loop's next compare
    r.run(40_000);
    expect(r.world.instances.length).toBeGreaterThan(1);
  });

  it('steps back to the previous phase and replays identically', () => {
    const r = runner({}, [], 900 * MiB);
    r.step();
    r.step();
    r.step();
    const frames = JSON.stringify(r.frames);
    const phase = r.phase;
    r.stepBack();
    expect(r.phase).not.toBe(phase);
    // The event of the last frame left (what --inspect tells with it) is that frame's, not the rewound one's.
    expect(r.lastEvent?.type ?? r.frames.at(-1)!.event).toBe(r.frames.at(-1)!.event);
    r.step();
    expect(r.phase).toBe(phase);
    expect(JSON.stringify(r.frames)).toBe(frames);
  });

  it('a controller restart loses its memory and resumes observing', () => {
    const r = runner({ policy: 'kubernetes' }, [{ at: 20_000, fault: { kind: 'restartController' } }], 900 * MiB);
    r.run(19_999);
    expect(r.snapshot.context.policyMemory.recommendations.length).toBeGreaterThan(0);
    r.run(20_000);
    expect(r.snapshot.context.policyMemory.recommendations).toEqual([]);
    expect(r.phase).toBe('observe');
  });

  it('runs unchanged with actors provided by name (the way real mode attaches Incus)', async () => {
    const calls: string[] = [];
    let pods = 1;
    const observation = (): Observation => ({
      at: Date.now(),
      instances: Array.from({ length: pods }, (_, i) => ({
        name: `pod${i}`,
        status: 'Running' as const,
        owner: 'hpa',
        memoryUsage: 900,
        memoryTotal: 1000,
        createdAt: i,
      })),
    });
    const machine = incusHpaMachine.provide({
      actors: {
        observe: fromPromise<Observation, ObserveInput>(async () => {
          calls.push('observe');
          return observation();
        }),
        createPod: fromPromise<{ name: string }, CreateInput>(async () => {
          calls.push('create');
          pods++;
          return { name: `pod${pods}` };
        }),
        deletePod: fromPromise<void, DeleteInput>(async () => {
          calls.push('delete');
        }),
      },
      delays: { period: 5 },
    });
    const actor = createActor(machine, { input: { config: { minPods: 1, maxPods: 3, memoryThreshold: 40 } } }).start();
    await waitFor(actor, () => pods === 3 && actor.getSnapshot().hasTag('wait'), { timeout: 2000 });
    actor.stop();
    expect(calls.slice(0, 4)).toEqual(['observe', 'create', 'observe', 'create']);
  });
});

describe('faults aimed at instances already gone', () => {
  it('a kill or delete of a missing instance changes nothing and says so', () => {
    const r = runner({}, [
      { at: 1000, fault: { kind: 'kill', instance: 'pod-gone' } },
      { at: 2000, fault: { kind: 'deleteInstance', instance: 'pod-gone' } },
    ]);
    r.run(3000);
    const notes = r.frames.filter((f) => f.event === 'world.timeline').map((f) => f.note);
    expect(notes).toEqual(['kill pod-gone: no such instance (already gone)', 'delete pod-gone: no such instance (already gone)']);
    expect(r.world.instances.map((i) => i.name)).toEqual(['pod']);
  });
});
