import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubernetesBinding, parseKubernetesScenario } from '../../sim/loops/kubernetes';
import type { StepState } from '../../sim/step';
import { Stepper } from '../../sim/step';
import type { KubeFault, KubeWorld } from '../../sim/worlds/kubernetes';
import type { ControllerConfig } from '../../machines/kubernetes';
import { activePods, kubeRunner, replicaSetYaml } from './helpers';

const scenario = (timeline: string) => `
loop: kubernetes
seed: 11
controller: replicaset
cluster:
  nodes: [{ name: n1, cpu: "8" }]
  resync: 2m
objects:${replicaSetYaml(2)}
timeline:
${timeline}`;

/** The ReplicaSet of two replicas with nothing on the timeline. */
const scenario0 = () => scenario('  []').replace('timeline:\n  []', 'timeline: []');

describe('watch faults: dropped events, reordering, a controller restart', () => {
  it('dropped Pod events leave expectations unmet (no double creation) until the relist at resync repairs the cache', () => {
    const runner = kubeRunner(
      scenario(`  - { at: 30s, dropWatch: { kind: Pod, count: 3 } }
  - { at: 31s, scale: { kind: ReplicaSet, name: web, replicas: 5 } }`),
    );
    runner.run(100_000);
    const world = runner.world as KubeWorld;
    expect(world.counters.watchDropped).toBe(3);
    expect(world.counters.podsCreated).toBe(5);
    expect(runner.frames.at(-1)!.note ?? '').not.toMatch(/create/);
    runner.run(125_000);
    // The relist at 2m delivered the missing pods: the cache agrees with the server again.
    expect(Object.values(world.store.objects).filter((o) => o.kind === 'Pod')).toHaveLength(5);
    expect(Object.keys((runner.world as KubeWorld).informer!.cache).filter((k) => k.startsWith('Pod/'))).toHaveLength(5);
    expect((runner.world as KubeWorld).counters.podsCreated).toBe(5);
    expect(runner.frames.some((f) => f.note?.includes('resync'))).toBe(true);
  });

  it('reordered watch events across kinds still converge to exactly spec.replicas', () => {
    const runner = kubeRunner(
      scenario(`  - { at: 30s, reorderWatch: { count: 20, upTo: 3s } }
  - { at: 31s, scale: { kind: ReplicaSet, name: web, replicas: 6 } }
  - { at: 33s, scale: { kind: ReplicaSet, name: web, replicas: 3 } }`),
    );
    runner.run(90_000);
    expect(activePods(runner.world)).toHaveLength(3);
  });

  it('a restarted controller relists and carries on from the cluster state, creating nothing twice', () => {
    const runner = kubeRunner(
      scenario(
        `  - { at: 30s, scale: { kind: ReplicaSet, name: web, replicas: 4 } }
  - { at: 30.03s, restartController: true }`.replace('30.03s', '30030'),
      ),
    );
    runner.run(90_000);
    expect(activePods(runner.world)).toHaveLength(4);
    expect((runner.world as KubeWorld).counters.podsCreated).toBe(4);
    expect(runner.frames.some((f) => f.event === 'controller.restart')).toBe(true);
  });

  describe('a crash with a write on the wire', () => {
    const scenario = parseKubernetesScenario('test.yaml', 'test', parse(scenario0()));
    const stepper = new Stepper(kubernetesBinding);
    type State = StepState<KubeWorld, ControllerConfig>;
    const onTheWire = (s: State) => s.world.ops.some((op) => op.kind === 'write' && op.batch.some((w) => w.verb === 'create'));
    /** The first instant the controller's create is on the wire (the API server has not answered yet). */
    function createInFlight(): State {
      let s: State = stepper.initial(scenario.config, scenario.world);
      for (let i = 0; i < 200 && !onTheWire(s); i++) s = stepper.tick(s)!.state;
      expect(onTheWire(s)).toBe(true);
      return s;
    }
    const runToRest = (s0: State, untilMs: number) => {
      let s = s0;
      for (let next = stepper.tick(s); next && next.state.t <= untilMs; next = stepper.tick(s)) s = next.state;
      return s;
    };
    const crash = (write?: 'lands' | 'lost'): KubeFault => (write ? { kind: 'restartController', write } : { kind: 'restartController' });

    it('lost: the API server never gets it; the restarted controller creates the pods once', () => {
      const crashed = stepper.inject(createInFlight(), crash('lost'));
      expect(crashed.world.ops.filter((op) => op.kind === 'write').every((op) => op.kind === 'write' && op.batch.length === 0)).toBe(true);
      const rest = runToRest(crashed, 60_000);
      expect(activePods(rest.world)).toHaveLength(2);
      expect(rest.world.counters.podsCreated).toBe(2);
    });

    it('lands: the API server applies it after the crash; the surplus the new controller adds is deleted', () => {
      const before = createInFlight();
      expect(kubernetesBinding.world.inject(before.world, crash('lands'), before.t).world).toBe(before.world);
      const crashed = stepper.inject(before, crash('lands'));
      const rest = runToRest(crashed, 60_000);
      expect(activePods(rest.world)).toHaveLength(2);
      expect(rest.world.counters.podsCreated).toBeGreaterThan(2);
    });

    it('a crash between reconciles leaves the world as it is', () => {
      const before = createInFlight();
      expect(kubernetesBinding.world.inject(before.world, crash(), before.t).world).toBe(before.world);
    });
  });
});
