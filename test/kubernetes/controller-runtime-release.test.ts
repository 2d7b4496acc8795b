import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ControllerContext } from '../../machines/kubernetes';
import { defaultRateLimiter } from '../../machines/kubernetes';
import { parseScenarioText } from '../../sim/loops/registry';
import type { KubernetesScenario } from '../../sim/loops/kubernetes';
import { kubernetesBinding } from '../../sim/loops/kubernetes';
import { Runner } from '../../sim/runner';
import { InputError, InputErrors } from '../../sim/scenario/errors';

/** `controllerRuntime:` selects the release whose default queue the controller has (pkg/controller/controller.go). */
const withRelease = (file: string, release: string | null) => {
  const text = readFileSync(file, 'utf8');
  return release === null ? text : text.replace(/^controller: (.*)$/m, `controller: $1\ncontrollerRuntime: ${release}`);
};
const parse = (text: string) => parseScenarioText('s.yaml', 's', text).scenario as KubernetesScenario;

describe('scenario option controllerRuntime', () => {
  it('defaults to v0.23 (priority queue, exponential-only limiter); "0.22" gives the 10 qps / 100 bucket', () => {
    expect(parse(withRelease('scenarios/kubernetes-replicaset.yaml', null)).config.rateLimiter).toEqual(defaultRateLimiter('0.23'));
    expect(parse(withRelease('scenarios/kubernetes-replicaset.yaml', '"0.22"')).config.rateLimiter).toEqual(defaultRateLimiter('0.22'));
  });

  it('a qps or burst of its own adds a bucket to the v0.23 limiter', () => {
    const text = withRelease('scenarios/kubernetes-replicaset.yaml', null).replace(
      /^controller: (.*)$/m,
      'controller: $1\nrateLimiter: { qps: 5 }',
    );
    expect(parse(text).config.rateLimiter.bucket).toEqual({ qps: 5, burst: 100 });
  });

  it('a release given as a YAML number, or an unknown one, is refused naming the field', () => {
    for (const bad of ['0.23', '"0.19"']) {
      try {
        parse(withRelease('scenarios/kubernetes-replicaset.yaml', bad));
        throw new Error('expected an InputError');
      } catch (e) {
        if (!(e instanceof InputError || e instanceof InputErrors)) throw e;
        expect(e.message).toMatch(/^s\.yaml: controllerRuntime: expected one of "0\.22", "0\.23"/);
      }
    }
  });

  it('the releases behave differently: the priority queue keeps one item per key, so the rolling update reconciles less often', () => {
    const reconciles = (release: string) => {
      const s = parse(withRelease('scenarios/kubernetes-deployment.yaml', release));
      const r = new Runner(kubernetesBinding, {
        scenario: s.name,
        seed: s.seed,
        world: s.world,
        config: s.config,
        timeline: s.timeline,
        recordFrames: false,
      });
      r.run(s.durationMs);
      return (r.snapshot.context as ControllerContext).reconciles;
    };
    const old = reconciles('"0.22"');
    const now = reconciles('"0.23"');
    expect(now).toBeLessThan(old);
  });
});
