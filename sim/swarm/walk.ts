import type { PathStep } from '../check/model';
import type { Choice, SwarmSpace } from './space';
import type { Finding, SearchBudget } from './strategy';
import { Judge, QuietCycle } from './strategy';

/** Picks one of the choices at step `at` of a walk (never called with none). */
export type Pick = (choices: readonly Choice[], at: number) => Choice;

/**
 * One walk from the start, `pick` choosing at every step, each state judged on the way. It ends
 * at the depth, the step budget, a state with nothing to do, a quiet cycle (a state seen before
 * with only ticks since: the walk has settled into going round), or once every
 * property has been found broken.
 */
export function walk(space: SwarmSpace, budget: SearchBudget, pick: Pick): Finding[] {
  const judge = new Judge(space);
  const cycle = new QuietCycle(space);
  const path: PathStep[] = [];
  let node = space.initial();
  const until = space.steps + budget.maxSteps;
  if (judge.visit(node, path)) return judge.findings;
  for (let at = 0; at < budget.depth && space.steps < until; at++) {
    const choices = space.choices(node);
    if (choices.length === 0) break;
    const choice = pick(choices, at);
    node = space.take(node, choice);
    path.push(choice.step);
    if (judge.visit(node, path)) break;
    if (cycle.repeats(node, at, choice)) break;
  }
  return judge.findings;
}

/** The tick when there is one, else the first move (time cannot pass: the environment must act or the walk ends). */
export const tickOr = (choices: readonly Choice[]) => choices.find((c) => c.step.kind === 'tick') ?? choices[0]!;
