/** The trace every runner produces and every viewer consumes (DESIGN.md "A trace"). */
export type Phase = 'observe' | 'compare' | 'act' | 'wait' | 'error';
export const PHASES: readonly Phase[] = ['observe', 'compare', 'act', 'wait', 'error'];

export interface Frame<W = unknown> {
  /** ms since start: virtual in sim, wall clock in real. */
  t: number;
  /** Dotted state value, e.g. "acting.creating". */
  state: string;
  phase: Phase;
  /** The event that produced this frame (a machine event, or world.* for world changes). */
  event: string;
  world: W;
  note?: string;
}

export interface Trace<W = unknown> {
  loop: string;
  scenario: string;
  seed: number;
  policy?: string;
  frames: Frame<W>[];
}

export function phaseOf(tags: ReadonlySet<string>): Phase {
  for (const p of PHASES) if (tags.has(p)) return p;
  throw new Error(`state has no phase tag (expected one of ${PHASES.join(', ')})`);
}

export function dottedState(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const [key, child] = Object.entries(value as Record<string, unknown>)[0] ?? [];
    if (key === undefined) return '';
    const rest = dottedState(child);
    return rest ? `${key}.${rest}` : key;
  }
  return String(value);
}
