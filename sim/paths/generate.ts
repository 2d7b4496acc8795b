import { getShortestPaths } from 'xstate/graph';
import type { LoopEntry, LoadedScenario } from '../loops/registry';
import { InputError } from '../scenario/errors';
import { dottedState } from '../trace';
import type { WorldEvent, WorldState } from './world-logic';
import { WorldLogic } from './world-logic';

export const COVER_KINDS = ['transitions', 'states'] as const;
export type CoverKind = (typeof COVER_KINDS)[number];

/** A generated path: the moves from the start, and what it is generated to reach (transition ids or machine states). */
export interface GeneratedPath {
  events: WorldEvent[];
  targets: string[];
}

/** What the search over a loop's world found. */
export interface WorldSearch {
  logic: WorldLogic;
  /** Distinct world states (by canonical key). */
  states: number;
  /** Machine transitions some reachable step takes (with the start's eventless ones). */
  reachableTransitions: Set<string>;
  /** Machine states (dotted values) reachable. */
  reachableStates: Set<string>;
  /** Per transition / machine state: a shortest path that takes / reaches it. */
  byTransition: Map<string, WorldEvent[]>;
  byState: Map<string, WorldEvent[]>;
}

/** The most steps one traversal may take (xstate/graph's `limit`; it keeps every state in memory). */
export const MAX_TRAVERSAL_STEPS = 1_000_000;

/**
 * xstate/graph's getShortestPaths over the loop's machine with its world (world-logic.ts): a
 * shortest path to every distinct world state. Each step's machine transitions are noted as the
 * traversal meets them (its adjacency map is built breadth-first, so the first step seen to take
 * a transition leaves from a state at least as near the start as any other): the shortest path to
 * that step's state, then the step, is a shortest path taking the transition.
 */
export function searchWorld(entry: LoopEntry, scenario: LoadedScenario, options: { timeline?: boolean } = {}): WorldSearch {
  const logic = new WorldLogic(entry, scenario, options);
  const firstEdge = new Map<string, { from: string; event: WorldEvent }>();
  logic.onEdge = (from, event, taken) => {
    for (const id of taken) if (!firstEdge.has(id)) firstEdge.set(id, { from: logic.key(from), event });
  };
  let paths: ReturnType<typeof getShortestPaths<typeof logic.logic>>;
  try {
    paths = getShortestPaths(logic.logic, {
      events: (s) => logic.events(s.context),
      serializeState: (s) => logic.key(s.context),
      serializeEvent: (e) => (e.type === 'tick' ? 'tick' : `move ${e.group}`),
      limit: MAX_TRAVERSAL_STEPS,
    });
  } catch (e) {
    if (e instanceof Error && e.message === 'Traversal limit exceeded') {
      throw new InputError(
        scenario.file,
        'timeline',
        `expected a world small enough to search whole: more than ${MAX_TRAVERSAL_STEPS} steps (fewer moves, or a check scenario)`,
      );
    }
    throw e;
  }
  logic.onEdge = undefined;
  const toKey = new Map<string, WorldEvent[]>();
  const byState = new Map<string, WorldEvent[]>();
  for (const p of paths) {
    const context: WorldState<unknown, unknown> = p.state.context;
    // xstate/graph's steps begin with the start state under a synthetic `xstate.init` (alterPath); each later step holds the event that led to it.
    const events = p.steps.slice(1).map((s) => s.event);
    toKey.set(logic.key(context), events);
    const value = dottedState(context.run.snapshot.value);
    const known = byState.get(value);
    if (!known || known.length > events.length) byState.set(value, events);
  }
  const byTransition = new Map<string, WorldEvent[]>();
  for (const id of logic.initialTaken) byTransition.set(id, []);
  for (const [id, { from, event }] of firstEdge) {
    if (byTransition.has(id)) continue;
    const prefix = toKey.get(from);
    if (!prefix) throw new Error(`paths: xstate/graph found no path to a state it traversed (${id})`);
    byTransition.set(id, [...prefix, event]);
  }
  return {
    logic,
    states: paths.length,
    reachableTransitions: new Set(byTransition.keys()),
    reachableStates: new Set(byState.keys()),
    byTransition,
    byState,
  };
}

const sameEvent = (a: WorldEvent, b: WorldEvent) => a.type === b.type && (a.type === 'tick' || (b.type === 'move' && a.group === b.group));
const isPrefix = (short: readonly WorldEvent[], long: readonly WorldEvent[]) =>
  short.length <= long.length && short.every((e, i) => sameEvent(e, long[i]!));

/**
 * One path per target, then a path that is a prefix of another is dropped and its targets go to
 * the longer one (which passes through the same steps): few paths, each still a shortest path to
 * its own last target.
 */
export function choosePaths(search: WorldSearch, cover: CoverKind): GeneratedPath[] {
  const wanted = cover === 'transitions' ? search.byTransition : search.byState;
  const candidates = [...wanted]
    .map(([target, events]) => ({ events, targets: [target] }))
    .sort((a, b) => b.events.length - a.events.length);
  const kept: GeneratedPath[] = [];
  for (const c of candidates) {
    const longer = kept.find((k) => isPrefix(c.events, k.events));
    if (longer) longer.targets.push(...c.targets);
    else kept.push({ events: c.events, targets: [...c.targets] });
  }
  return kept.sort((a, b) => a.events.length - b.events.length);
}
