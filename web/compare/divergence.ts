import type { LoopId } from '../../sim/loops/define';
import { isLoopId } from '../../sim/loops/define';
import { frameOf } from '../../sim/loop-frames';
import { runnerOf } from '../../sim/loop-runner';
import type { Runner } from '../../sim/runner';
import type { Frame } from '../../sim/trace';
import { LOOP_UI } from '../loop-ui';
import type { PolicyComparison } from '../loop-ui-types';

// What a side by side compares between policies is a loop's LOOP_UI `comparison` (web/loop-ui-types.ts): the
// number of replicas each decided, frame by frame. Only loops with policies can be compared; a loop without one
// shows no marks.

/**
 * The policy a run's own configuration names (its runner's config, typed as its loop's): side by side offers
 * "the scenario's own" as a column when this is not one of the loop's named policies (or is undefined).
 */
export const ownPolicyOf = (loop: string, runner: Runner<unknown, unknown, unknown>): string | undefined =>
  isLoopId(loop) ? ownPolicyOn(loop, runner) : undefined;

function ownPolicyOn<L extends LoopId>(loop: L, runner: Runner<unknown, unknown, unknown>): string | undefined {
  const own: PolicyComparison<L>['ownPolicy'] | undefined = LOOP_UI[loop].comparison?.ownPolicy;
  const typed = runnerOf(loop, runner);
  return own && typed ? own(typed.config) : undefined;
}

export const decisionOf = (loop: string): ((f: Frame) => number | null) | undefined => (isLoopId(loop) ? decisionOn(loop) : undefined);

/** A loop's decision on the frames of a comparison: every pane and run of one runs the listing's loop, so its id is the frames' (sim/loop-frames.ts). */
function decisionOn<L extends LoopId>(loop: L): ((f: Frame) => number | null) | undefined {
  const decide: PolicyComparison<L>['decision'] | undefined = LOOP_UI[loop].comparison?.decision;
  return (
    decide &&
    ((f) => {
      const typed = frameOf(loop, loop, f);
      return typed ? decide(typed) : null;
    })
  );
}

/** A moment where the columns start to decide differently ('diverge') or decide alike again ('converge'). */
export interface Divergence {
  t: number;
  kind: 'diverge' | 'converge';
  values: (number | null)[];
}

/**
 * The moments the runs' decisions part and meet again. Changes at the same virtual time are taken
 * together (each run's compare happens at the same period tick), so a run merely later by a few
 * frames within one instant is not a divergence; null (no decision yet) is a value like any other.
 */
export function divergences<F extends { t: number }>(runs: readonly (readonly F[])[], decision: (f: F) => number | null): Divergence[] {
  const changes: { t: number; run: number; value: number | null }[] = [];
  runs.forEach((frames, run) => {
    let last: number | null | undefined;
    for (const f of frames) {
      const v = decision(f);
      if (v !== last) {
        changes.push({ t: f.t, run, value: v });
        last = v;
      }
    }
  });
  changes.sort((a, b) => a.t - b.t || a.run - b.run);
  const current: (number | null)[] = runs.map(() => null);
  const out: Divergence[] = [];
  let apart = false;
  for (let i = 0; i < changes.length;) {
    const t = changes[i]!.t;
    for (; i < changes.length && changes[i]!.t === t; i++) current[changes[i]!.run] = changes[i]!.value;
    const now = current.some((v) => v !== current[0]);
    if (now !== apart) out.push({ t, kind: now ? 'diverge' : 'converge', values: [...current] });
    apart = now;
  }
  return out;
}
