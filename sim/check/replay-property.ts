import { formatTimeline } from '../format';
import { loadScenario } from '../loops';
import { prepareCheck } from './check';
import { replay, runQuiet, viewOf } from './counterexample';
import type { PathStep } from './model';
import { LassoMismatch, lassoTrace } from './lasso-trace';
import { isLiveness } from './model';

/** A path step as an emitted test stores it: env moves keep their label, to notice an edited timeline. */
export type EmittedStep = { kind: 'tick' } | { kind: 'env'; index: number; label: string };

export interface ReplaySpec {
  /** The scenario file (absolute in emitted tests): read again at every replay. */
  scenario: string;
  /** The variant (--policy) the check ran with; absent: the scenario's own config. */
  policy?: string;
  withinPeriods?: number;
  property: string;
  path: readonly EmittedStep[];
  /** A liveness counterexample: path[cycleStart …] is the cycle, repeated for ever. */
  cycleStart?: number;
}

export interface ReplayResult {
  /** One line per broken claim; empty when the property holds along the path. */
  failures: string[];
  /** The replay as `loopscope sim` prints it, to read when it fails. */
  timeline: string;
}

const seconds = (ms: number) => `${ms / 1000}s`;

/**
 * Replays a counterexample's path through the real Runner against the scenario file as it is
 * now and checks the property along it: an always-property in every state of the path; an
 * eventually-property must hold within its bound K after the path (the environment stops there)
 * and stay so — "stays" is checked up to 2K, or for ever when the quiet run comes round to a state
 * it was in (it then repeats that cycle).
 */
export function replayProperty(spec: ReplaySpec): ReplayResult {
  const { entry, scenario } = loadScenario(spec.scenario);
  const prepared = prepareCheck(entry, scenario, {
    ...(spec.policy !== undefined ? { policy: spec.policy } : {}),
    ...(spec.withinPeriods !== undefined ? { withinPeriods: spec.withinPeriods } : {}),
  });
  const property = prepared.properties.find((p) => p.name === spec.property);
  if (!property)
    throw new Error(
      `${spec.scenario}: the check claims no property ${spec.property} (it claims ${prepared.properties.map((p) => p.name).join(', ')})`,
    );
  const path: PathStep[] = spec.path.map((step, i) => {
    if (step.kind === 'tick') return step;
    const now = prepared.alphabet[step.index]?.label;
    if (now !== step.label) {
      throw new Error(
        `${spec.scenario}: timeline[${step.index}]: expected "${step.label}" (step ${i + 1} of the counterexample), got ${now === undefined ? 'no entry' : `"${now}"`}: the timeline changed, emit the test again`,
      );
    }
    return { kind: 'env', index: step.index };
  });

  const failures: string[] = [];
  if (isLiveness(property.kind)) {
    if (spec.cycleStart === undefined)
      throw new Error(`${spec.property} is a liveness property: its counterexample is a lasso (cycleStart missing)`);
    try {
      const trace = lassoTrace(prepared.replayInput, prepared.check, prepared.alphabet, property, { path, cycleStart: spec.cycleStart });
      failures.push(
        `${property.name} fails for ever on the lasso: its cycle (frames ${(trace.lasso?.cycleStart ?? 0) + 1} to ${trace.frames.length}) repeats and ${property.claim}`,
      );
      return { failures, timeline: formatTimeline(trace, entry.columns) };
    } catch (e) {
      if (e instanceof LassoMismatch) return { failures, timeline: e.message };
      throw e;
    }
  }
  if (property.kind === 'sometimes') throw new Error(`${spec.property} is a sometimes-property: it has witnesses, not counterexamples`);
  if (property.kind === 'always') {
    const runner = replay(prepared.replayInput, path, 0, (r, step) => {
      if (!property.holds(viewOf(r))) failures.push(`step ${step} (t = ${seconds(r.t)}): ${property.name} fails: ${property.claim}`);
    });
    return { failures, timeline: formatTimeline(runner.trace(), entry.columns) };
  }
  const runner = replay(prepared.replayInput, path);
  const stopped = runner.t;
  const bound = property.withinMs ?? 0;
  let lastFailing = property.holds(viewOf(runner)) ? undefined : runner.t;
  const { cycleFrame } = runQuiet(runner, prepared.replayInput.key, stopped + 2 * bound, () => {
    if (!property.holds(viewOf(runner))) lastFailing = runner.t;
  });
  // Ended on a cycle where it still fails: it fails for ever, past any bound.
  const cycleAt = cycleFrame === undefined ? undefined : runner.frames[cycleFrame]?.t;
  const forEver = cycleAt !== undefined && lastFailing !== undefined && lastFailing >= cycleAt;
  if (lastFailing !== undefined && (forEver || lastFailing - stopped > bound)) {
    const checked = forEver
      ? `for ever: from t = ${seconds(cycleAt)} the run repeats a cycle on which it fails`
      : `checked up to ${seconds(2 * bound)}`;
    failures.push(
      `${property.name} still fails at t = ${seconds(lastFailing)}, ${seconds(lastFailing - stopped)} after the environment stopped; it must hold within ${property.within ?? seconds(bound)} and stay so (${checked})`,
    );
  }
  return { failures, timeline: formatTimeline(runner.trace(), entry.columns) };
}

// `loopscope paths` writes tests that import this from the same entry (loopscope/testing).
export type { PathCoverage } from '../paths/testing';
export { pathCoverage } from '../paths/testing';
