import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../sim/check/check';
import { checkScenario, checkScenarioAsync, prepareCheck } from '../../sim/check/check';
import { EdgeList } from '../../sim/check/edges';
import { TICK } from '../../sim/check/expander';
import { explore } from '../../sim/check/explorer';
import { runJson } from '../../sim/check/json';
import { junitReport } from '../../sim/check/junit';
import { findLasso } from '../../sim/check/liveness';
import { replayProperty } from '../../sim/check/replay-property';
import { loadScenario } from '../../sim/loops';
import { parseScenarioText } from '../../sim/loops/registry';
import { InputError } from '../../sim/scenario/errors';
import { parseTrace } from '../../sim/trace-schema';

const FLAPPING = 'scenarios/incus-hpa-check-flapping.yaml';
const { entry, scenario } = loadScenario(FLAPPING);

const verdictOf = (run: CheckRun, name: string) => run.result.verdicts.find((v) => v.property.name === name)!;
const lassoLengths = (run: CheckRun, name: string) => {
  const v = verdictOf(run, name);
  return { status: v.status, prefix: v.cycleStart, cycle: v.path && v.cycleStart !== undefined ? v.path.length - v.cycleStart : undefined };
};
const summary = (run: CheckRun) =>
  run.result.verdicts.map((v) => ({ name: v.property.name, status: v.status, path: v.path, cycleStart: v.cycleStart }));

describe('liveness under weak fairness: the flapping scenario', () => {
  const seed = checkScenario(entry, scenario, { policy: 'seed' });

  it('the seed rule flaps for ever: settles is violated by a lasso (pinned lengths)', () => {
    expect(seed.result.stats.complete).toBe(true);
    expect(lassoLengths(seed, 'settles')).toEqual({ status: 'violated', prefix: 8, cycle: 14 });
    const path = verdictOf(seed, 'settles').path!;
    // Only the repeating moves act in the cycle, and time passes in it (weak fairness).
    const cycle = path.slice(8);
    expect(cycle.some((s) => s.kind === 'tick')).toBe(true);
    expect(
      cycle
        .filter((s) => s.kind === 'env')
        .map((s) => s.kind === 'env' && s.index)
        .sort(),
    ).toEqual([0, 1]);
  });

  it('the lasso is a trace the lab loads, with the cycle marked', () => {
    const ce = seed.counterexamples.find((c) => c.property === 'settles')!;
    const parsed = parseTrace(JSON.parse(JSON.stringify(ce.trace)));
    expect(parsed.ok).toBe(true);
    const start = ce.trace.lasso!.cycleStart;
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(ce.trace.frames.length - 1);
    expect(ce.trace.frames[start]!.note).toContain('↻ the cycle starts here');
    expect(ce.trace.frames.at(-1)!.note).toContain(`↻ back to frame ${start + 1}`);
    expect(ce.trace.frames.some((f) => f.note?.includes('✗ settles'))).toBe(true);
  });

  it('what the model says of the other policies under a load that may swing at any time (findings, pinned)', () => {
    // The environment may wait as long as it likes between swings, so the stabilisation window
    // only slows the flapping down (its cycle waits the window out); fixed flaps too.
    const kubernetes = checkScenario(entry, scenario, { policy: 'kubernetes' });
    const fixed = checkScenario(entry, scenario, { policy: 'fixed' });
    expect(lassoLengths(kubernetes, 'settles')).toEqual({ status: 'violated', prefix: 9, cycle: 16 });
    expect(lassoLengths(fixed, 'settles')).toEqual({ status: 'violated', prefix: 13, cycle: 10 });
    for (const run of [seed, kubernetes, fixed]) expect(verdictOf(run, 'scaling-finishes').status).toBe('holds');
  });

  it('a property that holds only under fairness: scaling-finishes, violated by a Zeno cycle of load swings without it', () => {
    const prepared = prepareCheck(entry, scenario, { policy: 'seed' });
    const search = (fairness: 'weak' | 'none') =>
      explore(entry.binding, prepared.check, { config: prepared.config, world: scenario.world }, prepared.alphabet, prepared.properties, {
        fairness,
      });
    const fair = search('weak').verdicts.find((v) => v.property.name === 'scaling-finishes')!;
    const unfair = search('none').verdicts.find((v) => v.property.name === 'scaling-finishes')!;
    expect(fair.status).toBe('holds');
    expect(unfair.status).toBe('violated');
    // The unfair lasso's cycle: the load rises and falls at one instant, for ever; the clock never moves.
    const cycle = unfair.path!.slice(unfair.cycleStart);
    expect(cycle.length).toBeGreaterThan(0);
    expect(cycle.every((s) => s.kind === 'env')).toBe(true);
  });

  it('is deterministic: the same lassos twice, and with 2 workers', async () => {
    const again = checkScenario(entry, scenario, { policy: 'seed' });
    expect(summary(again)).toEqual(summary(seed));
    const parallel = await checkScenarioAsync(entry, scenario, { policy: 'seed', workers: 2, parallelNow: true });
    expect(parallel.result.stats.workers).toBe(2);
    expect(summary(parallel)).toEqual(summary(seed));
    expect(parallel.counterexamples.map((c) => c.trace)).toEqual(seed.counterexamples.map((c) => c.trace));
  }, 120_000);

  it('a bound leaves liveness undecided unless a lasso was already found (its states and edges are real)', () => {
    const bounded = checkScenario(entry, scenario, { policy: 'seed', maxStates: 12 });
    expect(bounded.result.stats.complete).toBe(false);
    expect(verdictOf(bounded, 'scaling-finishes').status).toBe('unknown');
    expect(['unknown', 'violated']).toContain(verdictOf(bounded, 'settles').status);
  });

  it('the JSON and JUnit reports carry the lasso', () => {
    const json = runJson(seed, () => ({}));
    expect(json.verdicts.find((v) => v.property === 'settles')).toMatchObject({
      kind: 'eventually-always',
      status: 'violated',
      lasso: { prefixLength: 8, cycleLength: 14 },
    });
    const ce = json.counterexamples.find((c) => c.property === 'settles')!;
    expect(ce).toMatchObject({
      lasso: {
        prefixLength: 8,
        cycleLength: 14,
        cycleStartFrame: seed.counterexamples.find((c) => c.property === 'settles')!.trace.lasso!.cycleStart,
      },
    });
    const xml = junitReport([seed], entry.columns, () => ({}));
    expect(xml).toContain('violated on a fair lasso: 8 steps, then a cycle of 14 steps repeated for ever');
    expect(xml).toMatch(/lasso: prefix 8 steps, then a cycle of 14 steps repeated for ever \(the trace's frames from \d+ on\)/);
  });

  it('an emitted test replays the lasso: it fails while the policy flaps, passes with the property fixed', () => {
    const v = verdictOf(seed, 'settles');
    const path = v.path!.map((s) => (s.kind === 'tick' ? s : { ...s, label: seed.alphabet[s.index]!.label }));
    const replayed = replayProperty({ scenario: FLAPPING, policy: 'seed', property: 'settles', path, cycleStart: v.cycleStart! });
    expect(replayed.failures).toHaveLength(1);
    expect(replayed.failures[0]).toContain('settles fails for ever on the lasso');
  });
});

describe('findLasso on a hand-made graph', () => {
  // 0 —env→ 1 —env→ 0 (a cycle of environment moves only), 1 —tick→ 2 —tick→ 2.
  const edges = new EdgeList();
  edges.add(0, 1, 0);
  edges.add(1, 0, 1);
  edges.add(1, 2, TICK);
  edges.add(2, 2, TICK);
  edges.close(3);
  const parents = [[], [{ kind: 'env', index: 0 }], [{ kind: 'env', index: 0 }, { kind: 'tick' }]] as const;
  const graph = (q: boolean[], p: boolean[] = [false, false, false]) => ({
    n: 3,
    edges,
    bit: (column: number, id: number) => (column === 0 ? q : p)[id]!,
    pathTo: (id: number) => [...parents[id]!],
  });

  it('eventually-always: only the fair cycle counts', () => {
    // Q fails in 0 and 1 (on the unfair cycle only), holds in 2.
    expect(findLasso(graph([false, false, true]), 'eventually-always', 0, -1, 'weak')).toBeUndefined();
    expect(findLasso(graph([false, false, true]), 'eventually-always', 0, -1, 'none')).toEqual({
      path: [
        { kind: 'env', index: 0 },
        { kind: 'env', index: 1 },
      ],
      cycleStart: 0,
    });
    // Q fails in 2: the stutter at 2 is the fair cycle; the prefix is the shortest way there.
    expect(findLasso(graph([true, true, false]), 'eventually-always', 0, -1, 'weak')).toEqual({
      path: [{ kind: 'env', index: 0 }, { kind: 'tick' }, { kind: 'tick' }],
      cycleStart: 2,
    });
  });

  it('leads-to: a trigger whose ¬Q can last for ever on a fair run', () => {
    // P in 0, Q nowhere: 0 → 1 → 2 → 2 … never answers.
    expect(findLasso(graph([false, false, false], [true, false, false]), 'leads-to', 0, 1, 'weak')).toEqual({
      path: [{ kind: 'env', index: 0 }, { kind: 'tick' }, { kind: 'tick' }],
      cycleStart: 2,
    });
    // Q in 2: every fair run from 0 gets there; only the unfair 0 ⇄ 1 cycle avoids it.
    expect(findLasso(graph([false, false, true], [true, false, false]), 'leads-to', 0, 1, 'weak')).toBeUndefined();
    expect(findLasso(graph([false, false, true], [true, false, false]), 'leads-to', 0, 1, 'none')).toEqual({
      path: [
        { kind: 'env', index: 0 },
        { kind: 'env', index: 1 },
      ],
      cycleStart: 0,
    });
  });
});

describe('repeat: true in a scenario', () => {
  const text = (repeat: string) =>
    `loop: incus-hpa\nconfig:\n  HPA: { minPods: 1, maxPods: 2, memoryThreshold: 50 }\n  policy: seed\nworld:\n  instances: [{ name: pod-a }]\ntimeline:\n  - { at: 1m, demand: 1GB${repeat} }\n  - { at: 2m, demand: 0 }\n`;

  it('marks the entry repeating (and only it); the loop parser never sees the key', () => {
    const { scenario: s } = parseScenarioText('x.yaml', 'x', text(', repeat: true'));
    expect(s.repeating).toEqual([0]);
    expect(s.timeline).toHaveLength(2);
    expect(parseScenarioText('x.yaml', 'x', text('')).scenario.repeating).toBeUndefined();
  });

  it('anything but true or false is bad input naming the file and the field', () => {
    expect(() => parseScenarioText('x.yaml', 'x', text(', repeat: 3'))).toThrow(InputError);
    expect(() => parseScenarioText('x.yaml', 'x', text(', repeat: forever'))).toThrow(
      /^x\.yaml: timeline\[0\]\.repeat: expected true .*got "forever"$/,
    );
  });
});

describe('the trace schema: lasso', () => {
  const trace = {
    version: 2,
    loop: 'incus-hpa',
    scenario: 's',
    seed: 1,
    frames: [
      { t: 0, state: 'observing', phase: 'observe', event: 'xstate.init', world: { demand: 0, pods: [], apiCalls: 0, unownedTouched: 0 } },
    ],
  };

  it('old traces (no lasso) load as before; a lasso must point at a frame', () => {
    const { version: _version, ...v1 } = trace;
    expect(parseTrace(v1).ok).toBe(true);
    expect(parseTrace({ ...v1, lasso: { cycleStart: 0 } }).ok).toBe(true);
    expect(parseTrace({ ...v1, lasso: { cycleStart: 1 } })).toEqual({
      ok: false,
      error: 'lasso.cycleStart: expected a frame index below 1 (the number of frames), got 1',
    });
    expect(parseTrace({ ...v1, lasso: { cycleStart: -1 } }).ok).toBe(false);
  });
});
