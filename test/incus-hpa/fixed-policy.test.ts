import { describe, expect, it } from 'vitest';
import { EMPTY_POLICY_MEMORY, fixedPolicy } from '../../machines/incus-hpa';
import { config, pod } from './helpers';

const decide = (pods: ReturnType<typeof pod>[], over = {}) =>
  fixedPolicy({
    observation: { at: 0, instances: pods },
    config: config({ minPods: 2, maxPods: 4, memoryThreshold: 40, ...over }),
    memory: EMPTY_POLICY_MEMORY,
  });

describe('fixed policy (the seed repaired)', () => {
  it('clamps to min even at low load', () => {
    expect(decide([pod('a', 1)]).actions).toEqual([{ kind: 'create' }]);
    expect(decide([]).actions).toEqual([{ kind: 'create' }, { kind: 'create' }]);
  });
  it('counts starting instances: no second create while one starts', () => {
    expect(decide([pod('a', 90), pod('b', 0, { status: 'Starting' })]).actions).toEqual([]);
  });
  it('deletes the oldest, and waits for the stop', () => {
    const d = decide([pod('a', 1, { createdAt: 50 }), pod('b', 1, { createdAt: 10 }), pod('c', 1, { createdAt: 30 })]);
    expect(d.actions).toEqual([{ kind: 'delete', name: 'b', waitForStop: true }]);
  });
  it('never counts or touches instances it does not own, whatever their name', () => {
    const d = decide([pod('a', 1), pod('b', 1), pod('c', 1), pod('podman-cache', 1, { owner: null })]);
    expect(d.running).toBe(3);
    expect(d.actions).toEqual([{ kind: 'delete', name: 'a', waitForStop: true }]);
  });
  it('removes owned instances left Stopped', () => {
    const d = decide([pod('a', 30), pod('b', 30), pod('z', 0, { status: 'Stopped' })]);
    expect(d.actions).toEqual([{ kind: 'delete', name: 'z', waitForStop: true }]);
  });
  it('brings a count above max back to max', () => {
    const pods = ['a', 'b', 'c', 'd', 'e'].map((n, i) => pod(n, 30, { createdAt: i }));
    expect(decide(pods).actions).toEqual([{ kind: 'delete', name: 'a', waitForStop: true }]);
  });
  it('scales up by one on load below max', () => {
    expect(decide([pod('a', 50), pod('b', 50)]).actions).toEqual([{ kind: 'create' }]);
    expect(decide([pod('a', 50), pod('b', 50), pod('c', 50), pod('d', 50)]).actions).toEqual([]);
  });
});
