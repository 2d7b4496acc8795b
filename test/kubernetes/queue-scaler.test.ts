import { describe, expect, it } from 'vitest';
import { workersFor } from '../../machines/kubernetes/reconcilers/queue-scaler';
import type { QueueScalerSpec } from '../../machines/kubernetes/reconcilers/queue-scaler';
import { runnerFor } from '../../sim/loops';
import type { KubeSummary } from '../../sim/loops/kubernetes-world-schema';

// Seed 000: "e se quisermos escalar com base no tamanho de uma fila de mensagens?"
const spec: QueueScalerSpec = {
  queue: 'q',
  scaleTargetRef: { kind: 'Deployment', name: 'w' },
  messagesPerWorker: 100,
  minReplicas: 1,
  maxReplicas: 10,
  pollingIntervalSeconds: 10,
  scaleDownDelaySeconds: 120,
};

describe('queue-length worker scaler', () => {
  it('workers = ceil(length / messagesPerWorker), clamped; scale-down waits for the delay after a scale-up', () => {
    expect(workersFor(spec, 0, 3, undefined, 0).replicas).toBe(1);
    expect(workersFor(spec, 350, 1, undefined, 0).replicas).toBe(4);
    expect(workersFor(spec, 5000, 1, undefined, 0).replicas).toBe(10);
    expect(workersFor(spec, 50, 6, 100_000, 150_000).replicas).toBe(6);
    expect(workersFor(spec, 50, 6, 100_000, 221_000).replicas).toBe(1);
  });

  it('scenarios/kubernetes-queue-scaler.yaml: workers follow the burst, the queue stays bounded, then drains and workers return to 1', () => {
    const { runner } = runnerFor('scenarios/kubernetes-queue-scaler.yaml');
    runner.run(15 * 60_000);
    const frames = runner.frames.map((f) => ({ t: f.t, w: f.world as KubeSummary }));
    const workers = (w: KubeSummary) => Number(w.deployments[0]!.ready.split('/')[1]);
    const peak = Math.max(...frames.map((f) => workers(f.w)));
    expect(peak).toBeGreaterThanOrEqual(8);
    expect(Math.max(...frames.map((f) => f.w.queues[0]!.length))).toBeLessThan(1000);
    const last = frames.at(-1)!.w;
    expect(workers(last)).toBe(1);
    expect(last.queues[0]!.length).toBeLessThan(100);
    // It polled: about one reconcile per 10 s, not one per status write.
    const reconciles = runner.frames.filter((f) => f.event === 'xstate.done.actor.readCache').length;
    expect(reconciles).toBeGreaterThan(80);
    expect(reconciles).toBeLessThan(100);
  });
});
