import { LOOP_IDS } from '../../sim/loops/registry';
import { TOUR } from '../tour/stops';
import type { ScenarioListing } from './scenarios';
import { isOneOf } from '../../sim/one-of';

/** The scenario the talk opens with; the tour's stops follow it. */
export const TALK_SCENARIO = 'talk-lab';

/** A group of the scenario picker: the talk's, one loop's demos, or the model checker's scenarios. */
export type ScenarioGroup =
  | { kind: 'talk'; scenarios: ScenarioListing[] }
  | { kind: 'loop'; loop: string; scenarios: ScenarioListing[] }
  | { kind: 'checks'; scenarios: ScenarioListing[] };

const isCheck = (s: ScenarioListing) => s.id.includes('-check-');

/** The picker's order: what the talk uses first (talk-lab, then the tour's scenarios in its order), then each
 * loop's demos, then the scenarios written for `loopscope check` (`*-check-*`), which a talk never opens. */
export function groupScenarios(scenarios: readonly ScenarioListing[]): ScenarioGroup[] {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const talkIds = [...new Set([TALK_SCENARIO, ...TOUR.map((stop) => stop.scenario)])];
  const talk = talkIds.map((id) => byId.get(id)).filter((s): s is ScenarioListing => s !== undefined);
  const rest = scenarios.filter((s) => !talkIds.includes(s.id));
  const loops = [...LOOP_IDS, ...new Set(rest.map((s) => s.loop).filter((l) => !isOneOf(LOOP_IDS, l)))];
  return [
    ...(talk.length ? [{ kind: 'talk' as const, scenarios: talk }] : []),
    ...loops
      .map((loop) => ({ kind: 'loop' as const, loop, scenarios: rest.filter((s) => s.loop === loop && !isCheck(s)) }))
      .filter((g) => g.scenarios.length),
    ...(rest.some(isCheck) ? [{ kind: 'checks' as const, scenarios: rest.filter(isCheck) }] : []),
  ];
}
