import { stringify } from 'yaml';
import { InputError } from '../scenario/errors';
import type { GeneratedPath } from './generate';
import type { WorldLogic } from './world-logic';

/** A generated path as a timeline: which of the scenario's entries happen, and when (ms). */
export interface PathTimeline {
  moves: { index: number; at: number }[];
  endMs: number;
  taken: Set<string>;
}

/** Replays a path through the world logic: each move's instant (the timeline's `at`), the end, and what it takes. */
export function pathTimeline(logic: WorldLogic, path: GeneratedPath): PathTimeline {
  let state = logic.initial;
  const taken = new Set(logic.initialTaken);
  const moves: PathTimeline['moves'] = [];
  for (const event of path.events) {
    const step = logic.step(state, event);
    state = step.state;
    for (const id of step.taken) taken.add(id);
    if (event.type === 'move') moves.push({ index: logic.groups[event.group]!.move.index, at: state.run.t });
  }
  return { moves, endMs: state.run.t, taken };
}

/** `at` as a scenario writes it: whole seconds as "90s", anything finer in ms. */
export const formatAt = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The path as a scenario: the generating scenario's own YAML (config, world, seed) with its
 * timeline replaced by the path's moves at their instants — each the entry as the file wrote it,
 * without `repeat` — and a duration ending at the path's last step, so `loopscope sim` plays the
 * path and ends where it reaches its target.
 */
export function pathScenarioYaml(
  source: { file: string; doc: unknown },
  name: string,
  description: string,
  timeline: PathTimeline,
): string {
  const { doc } = source;
  if (!isRecord(doc) || !Array.isArray(doc.timeline))
    throw new InputError(source.file, 'timeline', 'expected a list of entries (the moves the paths are made of)');
  const entries: unknown[] = doc.timeline;
  const rest = Object.fromEntries(Object.entries(doc).filter(([k]) => k !== 'moments'));
  const moves = timeline.moves.map(({ index, at }) => {
    const raw = entries[index];
    if (!isRecord(raw)) throw new InputError(source.file, `timeline[${index}]`, 'expected an entry (a mapping)');
    const { repeat: _repeat, at: _at, ...change } = raw;
    return { at: formatAt(at), ...change };
  });
  return stringify({ ...rest, name, description, duration: formatAt(Math.max(timeline.endMs, 1)), timeline: moves }, { lineWidth: 0 });
}
