import { describe, expect, it } from 'vitest';
import { APPLICATION_FINALIZER } from '../../machines/kubernetes/reconcilers/application';
import { runnerFor } from '../../sim/loops';
import { activePods, objects } from './helpers';

// Seed 001: eminetto/k8s-operator-talk controllers/application_controller.go (finalizer first,
// createOrUpdateDeployment, createService, reconcileDelete removes the finalizer).
describe('the Application operator (scenarios/kubernetes-application.yaml)', () => {
  it('adds its finalizer, then reaches the desired Deployment, Service and ready pods', () => {
    const { runner } = runnerFor('scenarios/kubernetes-application.yaml');
    runner.run(50_000);
    const app = objects(runner.world, 'Application')[0]!;
    expect(app.metadata.finalizers).toEqual([APPLICATION_FINALIZER]);
    const dep = objects(runner.world, 'Deployment')[0]!;
    expect(dep.metadata.name).toBe('application-sample-deployment');
    expect(dep.metadata.ownerReferences[0]).toMatchObject({ kind: 'Application', uid: app.metadata.uid });
    expect(objects(runner.world, 'Service').map((s) => s.metadata.name)).toEqual(['application-sample-service']);
    const ready = activePods(runner.world).filter((p) => (p.status as { ready: boolean }).ready);
    expect(ready).toHaveLength(2);
    runner.run(2 * 60_000);
    const pods = activePods(runner.world);
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => (p.spec as { containers: { image: string }[] }).containers[0]!.image === 'nginx:1.27')).toBe(true);
  });

  it('a Deployment deleted by hand is recreated only at the next resync (the operator has no Owns watch)', () => {
    const { runner } = runnerFor('scenarios/kubernetes-application.yaml');
    runner.run(4 * 60_000 + 59_000);
    expect(objects(runner.world, 'Deployment')).toHaveLength(0);
    runner.run(5 * 60_000 + 30_000);
    expect(objects(runner.world, 'Deployment')).toHaveLength(1);
    expect(activePods(runner.world)).toHaveLength(3);
  });

  it('on delete: the finalizer holds the Application until the operator has cleaned up, then everything is gone', () => {
    const { runner } = runnerFor('scenarios/kubernetes-application.yaml');
    runner.run(9 * 60_000);
    const marked = objects(runner.world, 'Application')[0]!;
    expect(marked.metadata.deletionTimestamp).toBe(9 * 60_000);
    runner.run(9 * 60_000 + 30_000);
    for (const kind of ['Application', 'Deployment', 'ReplicaSet', 'Service', 'Pod']) expect(objects(runner.world, kind)).toEqual([]);
  });
});
