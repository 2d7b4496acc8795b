import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { DeploymentSpec } from '../../machines/kubernetes';
import { specOf } from '../../machines/kubernetes';
import { viewOf } from '../../sim/check/counterexample';
import { kubernetesBinding, parseKubernetesScenario } from '../../sim/loops/kubernetes';
import { kubernetesProperties, kubernetesPromises } from '../../sim/properties/kubernetes';
import { Runner } from '../../sim/runner';
import { objects } from './helpers';

// scenarios/kubernetes-hpa-rollout-warmup.yaml: pods burn 600m for their first 40 s and become
// Ready after 45 s. groupPods (replica_calculator.go) sets their samples aside while they are not
// Ready inside the CPU initialisation period; with the flags at 0 they count as load.
const FILE = 'scenarios/kubernetes-hpa-rollout-warmup.yaml';

function run(options?: Record<string, unknown>) {
  const doc = parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
  const scenario = parseKubernetesScenario(FILE, 'warmup', options ? { ...doc, options } : doc);
  const alphabet = scenario.timeline.map((entry, index) => ({ index, label: '', entry }));
  const property = kubernetesProperties(scenario.config, alphabet, undefined, scenario.world).find(
    (p) => p.name === 'no-warm-up-overscale',
  );
  if (!property) throw new Error("no-warm-up-overscale is not among the scenario's properties");
  const runner = new Runner(kubernetesBinding, {
    scenario: 'warmup',
    seed: scenario.seed,
    world: scenario.world,
    config: scenario.config,
    timeline: scenario.timeline,
    recordFrames: false,
  });
  let maxReplicas = 0;
  let brokenAt: number | null = null;
  while (runner.nextEventAt !== undefined && runner.nextEventAt <= scenario.durationMs) {
    runner.processNext();
    const web = objects(runner.world, 'Deployment')[0]!;
    maxReplicas = Math.max(maxReplicas, specOf<DeploymentSpec>(web).replicas);
    if (brokenAt === null && !property.holds(viewOf(runner))) brokenAt = runner.t;
  }
  return { maxReplicas, brokenAt, promises: kubernetesPromises(scenario.config) };
}

describe('CPU initialisation period and initial readiness delay (Kubernetes 1.35 defaults: 5m, 30s)', () => {
  it('the start-up and the rolling update pass at 4 replicas: warming pods are unready, their CPU is set aside', () => {
    const r = run();
    expect(r.maxReplicas).toBe(4);
    expect(r.brokenAt).toBeNull();
    expect(r.promises).toContain('no-warm-up-overscale');
  });

  it("with both flags at 0 the warming pods' CPU counts: the start-up over-scales to maxReplicas (12); not promised", () => {
    const r = run({ cpuInitializationPeriod: '0s', initialReadinessDelay: '0s' });
    expect(r.maxReplicas).toBe(12);
    expect(r.brokenAt).not.toBeNull();
    expect(r.promises).not.toContain('no-warm-up-overscale');
  });
});

describe('HPA options are checked when the scenario is read', () => {
  const doc = () => parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
  it.each([
    [{ kubernetesRelease: 1.32 }, /options\.kubernetesRelease.*"1\.32", "1\.33", "1\.34", "1\.35"/],
    [{ cpuInitializationPeriod: 'soon' }, /options\.cpuInitializationPeriod.*duration/],
    [{ tolerance: -1 }, /options\.tolerance.*≥ 0/],
    [{ tolerence: 0.1 }, /options/],
  ])('%o', (options, message) => {
    expect(() => parseKubernetesScenario(FILE, 'bad', { ...doc(), options })).toThrow(message);
  });
});
