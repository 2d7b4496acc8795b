import { describe, expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import { activePods, objects } from './helpers';
import type { KObject } from '../../machines/kubernetes';

// Seed 002: provision a volume, start the primary, wait until ready, start replicas, configure
// replication, schedule backups; fail over when the primary dies.
const role = (pods: KObject[], r: string) => pods.filter((p) => p.metadata.labels.role === r);
const node = (p: KObject) => (p.spec as { nodeName?: string }).nodeName;

describe('the Database operator (scenarios/kubernetes-database.yaml)', () => {
  it('goes volume → primary → (ready) → replicas → replication → backups, in that order', () => {
    const { runner } = runnerFor('scenarios/kubernetes-database.yaml');
    runner.run(3 * 60_000 - 1);
    const notes = runner.frames.map((f) => f.note ?? '');
    const at = (text: string) => notes.findIndex((n) => n.includes(text));
    expect(at('1. provision volume')).toBeGreaterThanOrEqual(0);
    expect(at('1. provision volume')).toBeLessThan(at('2. start the primary'));
    expect(at('2. start the primary')).toBeLessThan(at('3. wait for primary'));
    expect(at('3. wait for primary')).toBeLessThan(at('4. start 2 replica(s)'));
    const pods = activePods(runner.world);
    expect(role(pods, 'primary').map((p) => p.metadata.name)).toEqual(['orders-0']);
    expect(role(pods, 'replica')).toHaveLength(2);
    expect(objects(runner.world, 'PersistentVolumeClaim')[0]!.status).toEqual({ phase: 'Bound' });
    expect(objects(runner.world, 'ConfigMap')[0]!.spec).toEqual({ data: { primary: 'orders-0', replicas: 'orders-1,orders-2' } });
    expect(objects(runner.world, 'CronJob')[0]!.spec).toMatchObject({ schedule: '0 3 * * *' });
    expect(objects(runner.world, 'Database')[0]!.status).toMatchObject({ phase: 'Ready', primary: 'orders-0', readyReplicas: 2 });
    // Stable names: the create repeated from a stale cache never starts a second instance.
    expect(objects(runner.world, 'Pod')).toHaveLength(3);
  });

  it('fails over when the primary’s node dies: a replica is promoted and a new replica replaces it', () => {
    const { runner } = runnerFor('scenarios/kubernetes-database.yaml');
    runner.run(3 * 60_000);
    expect(node(role(activePods(runner.world), 'primary')[0]!)).toBe('node-1');
    runner.run(7 * 60_000);
    const pods = activePods(runner.world);
    const primary = role(pods, 'primary');
    expect(primary).toHaveLength(1);
    expect(primary[0]!.metadata.name).not.toBe('orders-0');
    expect(role(pods, 'replica')).toHaveLength(2);
    expect(pods.every((p) => node(p) !== 'node-1')).toBe(true);
    const db = objects(runner.world, 'Database')[0]!;
    expect(db.status).toMatchObject({ phase: 'Ready', primary: primary[0]!.metadata.name, failovers: 1 });
    expect((objects(runner.world, 'CronJob')[0]!.spec as { target: string }).target).toBe(primary[0]!.metadata.name);
  });

  it('deleting the Database removes everything it owns', () => {
    const { runner } = runnerFor('scenarios/kubernetes-database.yaml');
    runner.run(9 * 60_000);
    for (const kind of ['Database', 'Pod', 'PersistentVolumeClaim', 'ConfigMap', 'CronJob'])
      expect(objects(runner.world, kind)).toEqual([]);
  });
});

describe('a Database with an invalid spec', () => {
  it('is a TerminalError: reported once in its status and not retried until the spec changes', async () => {
    const { kubeRunner } = await import('./helpers');
    const db = (storage: string) => `
      apiVersion: example.com/v1
      kind: Database
      metadata: { name: bad }
      spec: { storage: ${storage} }`;
    const runner = kubeRunner(`
loop: kubernetes
controller: database
timeline:
  - at: 1s
    apply:${db('10Gx')}
  - at: 2m
    apply:${db('5Gi')}
`);
    runner.run(110_000);
    const reconciles = runner.frames.filter((f) => f.event === 'xstate.done.actor.readCache').length;
    expect(reconciles).toBeLessThanOrEqual(2); // the ADDED event, and the status write's MODIFIED
    expect(runner.frames.some((f) => /terminal error .*not requeued/.test(f.note ?? ''))).toBe(true);
    expect(objects(runner.world, 'Database')[0]!.status).toMatchObject({ phase: 'Failed' });
    runner.run(4 * 60_000);
    expect(objects(runner.world, 'Database')[0]!.status).toMatchObject({ phase: 'Ready' });
  });
});
