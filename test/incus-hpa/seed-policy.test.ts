import { describe, expect, it } from 'vitest';
import { EMPTY_POLICY_MEMORY, seedPolicy } from '../../machines/incus-hpa';
import { config, pod } from './helpers';

// The lab's runHPALoop (Forge-Operator-Lab cmd/main.go), rule by rule.
const decide = (pods: ReturnType<typeof pod>[], over = {}) =>
  seedPolicy({
    observation: { at: 0, instances: pods },
    config: config({ minPods: 1, maxPods: 5, memoryThreshold: 40, ...over }),
    memory: EMPTY_POLICY_MEMORY,
  });

describe('seed policy (the lab rule as written)', () => {
  it.each([
    // [case, pods, expected actions]
    ['no running pod, min > 0 → create one', [], [{ kind: 'create' }]],
    ['avg ≥ threshold and running < max → create one', [pod('pod', 90), pod('pod1', 10)], [{ kind: 'create' }]],
    ['avg exactly at threshold creates (≥)', [pod('pod', 40)], [{ kind: 'create' }]],
    ['avg between threshold/2 and threshold → nothing', [pod('pod', 30)], []],
    [
      'avg < threshold/2 and running > min → delete the LAST pod in the list, stop not waited',
      [pod('pod', 5), pod('podb', 5)],
      [{ kind: 'delete', name: 'podb', waitForStop: false }],
    ],
    ['avg exactly threshold/2 keeps (strict <)', [pod('pod', 20), pod('podb', 20)], []],
    ['at min with low load → nothing (no clamp to min)', [pod('pod', 1)], []],
  ] as const)('%s', (_name, pods, actions) => {
    expect(decide([...pods]).actions).toEqual(actions);
  });

  it('percent = floor(usage*100/total) per pod and average = floor(sum/running)', () => {
    const a = pod('pod', 0, { memoryUsage: 399, memoryTotal: 1000 }); // 39.9% → 39
    const b = pod('podb', 0, { memoryUsage: 405, memoryTotal: 1000 }); // 40.5% → 40
    const d = decide([a, b]);
    expect(d.averagePercent).toBe(39); // floor((39 + 40) / 2)
    expect(d.actions).toEqual([]);
  });

  it('ignores pods that are not Running and pods with memory total 0', () => {
    const d = decide([pod('pod', 90, { status: 'Stopped' }), pod('podb', 90, { memoryTotal: 0 })]);
    expect(d.running).toBe(0);
    expect(d.actions).toEqual([{ kind: 'create' }]);
  });

  it('matches pods by name prefix, owned or not (the lab quirk)', () => {
    const d = decide([pod('pod', 1), pod('podman-cache', 1, { owner: null })]);
    expect(d.actions).toEqual([{ kind: 'delete', name: 'podman-cache', waitForStop: false }]);
  });

  it('deletes the last pod in the list even when it is Stopped', () => {
    const d = decide([pod('pod', 1), pod('podb', 1), pod('podz', 0, { status: 'Stopped' })]);
    expect(d.actions).toEqual([{ kind: 'delete', name: 'podz', waitForStop: false }]);
  });

  it('at max with high load does nothing', () => {
    const pods = ['pod', 'poda', 'podb', 'podc', 'podd'].map((n) => pod(n, 90));
    expect(decide(pods).actions).toEqual([]);
  });

  it('threshold/2 uses integer division (threshold 41 → 20)', () => {
    expect(decide([pod('pod', 20), pod('podb', 20)], { memoryThreshold: 41 }).actions).toEqual([]);
    expect(decide([pod('pod', 19), pod('podb', 19)], { memoryThreshold: 41 }).actions).toHaveLength(1);
  });

  it('min 0 with no running pod does nothing; at most one action per period', () => {
    expect(decide([], { minPods: 0 }).actions).toEqual([]);
    expect(decide([pod('pod', 100)], { maxPods: 10 }).actions).toHaveLength(1);
  });
});
