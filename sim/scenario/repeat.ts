import { InputError } from './errors';

/**
 * `repeat: true` on a timeline entry, for every loop: `loopscope check` lets the environment make
 * that move again and again, for ever (an unbounded budget), instead of at most once. The key is
 * taken out here, before the loop's own parser (a strict schema per loop) sees the entry, so one
 * syntax serves every loop. `sim` and the lab play the entry once, at its `at`, as written.
 */
const REPEAT_KEY = 'repeat';

const EXPECTED = 'expected true (check: the environment may make this move again and again, for ever) or no repeat key';

/** The document without `repeat` keys, and the indexes of the entries that had `repeat: true`. */
export function takeRepeats(file: string, doc: unknown): { doc: unknown; repeating: number[] } {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { doc, repeating: [] };
  const timeline = 'timeline' in doc ? doc.timeline : undefined;
  if (!Array.isArray(timeline)) return { doc, repeating: [] };
  const repeating: number[] = [];
  let changed = false;
  const entries = timeline.map((entry: unknown, i) => {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry) || !(REPEAT_KEY in entry)) return entry;
    const { [REPEAT_KEY]: repeat, ...rest } = entry as Record<string, unknown>; // cast: checked an object, not an array, just above
    if (repeat !== true && repeat !== false)
      throw new InputError(file, `timeline[${i}].${REPEAT_KEY}`, `${EXPECTED}, got ${JSON.stringify(repeat) ?? String(repeat)}`);
    if (repeat) repeating.push(i);
    changed = true;
    return rest;
  });
  return { doc: changed ? { ...doc, timeline: entries } : doc, repeating };
}
