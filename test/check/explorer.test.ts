import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { BitColumn, IntColumn, settleTimes } from '../../sim/check/columns';
import { Stepper } from '../../sim/step';
import { loadScenario } from '../../sim/loops';
import { hpaBinding } from '../../sim/loops/incus-hpa';
import { Runner } from '../../sim/runner';
import { dottedState } from '../../sim/trace';
import type { HpaFault } from '../../sim/worlds/incus-hpa';

const SMALL = 'scenarios/incus-hpa-check-small.yaml';
const verdict = (run: ReturnType<typeof checkScenario>, name: string) => run.result.verdicts.find((v) => v.property.name === name)!;

describe('the stepper follows the Runner exactly', () => {
  for (const file of ['scenarios/api-faults.yaml', 'scenarios/talk-lab.yaml', SMALL]) {
    it(file, () => {
      const { scenario } = loadScenario(file);
      const runner = new Runner(hpaBinding, { scenario: 'x', seed: 1, world: scenario.world as never, config: scenario.config as never });
      const stepper = new Stepper(hpaBinding);
      let state = stepper.initial(scenario.config as never, scenario.world as never);
      const faults = scenario.timeline.flatMap((e) => ('fault' in e ? [{ at: e.at, fault: e.fault as HpaFault }] : []));
      for (let i = 0; i < 400; i++) {
        const due = faults[0];
        if (due && due.at <= (stepper.next(state)?.at ?? Infinity) && due.at >= state.t) {
          faults.shift();
          const exists =
            !('instance' in due.fault) || runner.world.instances.some((x) => x.name === (due.fault as { instance: string }).instance);
          if (exists) {
            runner.inject(due.fault);
            state = stepper.inject(state, due.fault);
          }
          continue;
        }
        runner.processNext();
        state = stepper.tick(state)!.state;
        expect(state.t).toBe(runner.t);
        expect(dottedState(state.snapshot.value)).toBe(runner.stateValue);
        expect(JSON.stringify(state.world)).toBe(JSON.stringify(runner.world));
        expect(JSON.stringify(state.snapshot.context)).toBe(JSON.stringify(runner.snapshot.context));
      }
    });
  }
});

describe('settle times over quiet chains', () => {
  it('a chain into a good cycle settles; a bad cycle never does', () => {
    // 0 → 1 → 2 → 1 (cycle 1,2 all ok); 3 → 4 → 4 (4 not ok)
    const next = new IntColumn();
    const dt = new IntColumn();
    [
      [1, 10],
      [2, 5],
      [1, 5],
      [4, 7],
      [4, 0],
    ].forEach(([n, d], i) => {
      next.set(i, n!);
      dt.set(i, d!);
    });
    const ok = new BitColumn();
    [false, true, true, true, false].forEach((v, i) => ok.set(i, v));
    const { ms, exact } = settleTimes(5, next, dt, ok);
    expect([...ms]).toEqual([10, 0, 0, Infinity, Infinity]);
    expect([...exact]).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('the explorer on incus-hpa-check-small', () => {
  const { entry, scenario } = loadScenario(SMALL);
  const fixed = checkScenario(entry, scenario, { policy: 'fixed' });
  const seed = checkScenario(entry, scenario, { policy: 'seed' });

  it('explores the whole bounded space and fixed keeps every promise', () => {
    expect(fixed.result.stats.complete).toBe(true);
    expect(fixed.result.stats.distinct).toBeGreaterThan(1000);
    for (const name of fixed.promises) expect(verdict(fixed, name).status).toBe('holds');
    expect(fixed.counterexamples).toEqual([]);
  });

  it('the seed deletes podman-cache at once: the shortest counterexample is 2 steps', () => {
    const v = verdict(seed, 'never-touches-unowned');
    expect(v.status).toBe('violated');
    expect(v.path).toEqual([{ kind: 'tick' }, { kind: 'tick' }]);
    const trace = seed.counterexamples.find((c) => c.property === 'never-touches-unowned')!.trace;
    expect(trace.frames.at(-1)!.note).toMatch(/never-touches-unowned/);
    expect(JSON.parse(JSON.stringify(trace))).toEqual(trace); // plain JSON, as the lab loads it
  });

  it('the seed exceeds max after a controller restart mid-create, and never recovers a killed pod', () => {
    const path = verdict(seed, 'at-most-max').path!;
    const labels = path.flatMap((s) => (s.kind === 'env' ? [seed.alphabet[s.index]!.label] : []));
    expect(labels).toContain('controller restart');
    expect(verdict(seed, 'converges').status).toBe('violated');
    expect(verdict(seed, 'converges').settleMs).toBe(Infinity);
  });

  it('a tighter bound K than the worst settle time is refuted', () => {
    const tight = checkScenario(entry, scenario, { policy: 'fixed', withinPeriods: 1 });
    expect(verdict(tight, 'converges').status).toBe('violated');
  });

  it('depth bounds give unknown, not holds', () => {
    const bounded = checkScenario(entry, scenario, { policy: 'fixed', maxDepth: 5 });
    expect(bounded.result.stats.complete).toBe(false);
    expect(verdict(bounded, 'never-touches-unowned').status).toBe('unknown');
  });
});

describe('loopscope check exit codes', () => {
  const cli = (...args: string[]) => {
    try {
      execFileSync('./cli/loopscope', ['check', ...args], { stdio: 'pipe' });
      return 0;
    } catch (e) {
      return (e as { status: number }).status;
    }
  };
  it('0 when every property holds, 1 when one is violated, 2 on bad input', () => {
    expect(cli(SMALL, '--policy', 'fixed')).toBe(0);
    // Only promised properties fail a run: the seed's violations are findings (exit 0), a bound
    // K tighter than fixed's promise is a violation (see test/check/check-cli.test.ts).
    expect(cli(SMALL, '--policy', 'fixed', '--within', '1')).toBe(1);
    expect(cli(SMALL, '--policy', 'nope')).toBe(2);
    expect(cli(SMALL, '--depth', '0')).toBe(2);
    expect(cli('scenarios/missing.yaml')).toBe(2);
  }, 60_000);
});
