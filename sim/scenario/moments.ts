import { z } from 'zod';
import type { Frame } from '../trace';
import { InputError } from './errors';
import { durationField } from './hpa-config';

/**
 * A scenario's named moments (the lab's chapters): a slug, an optional title (plain text, or one
 * per UI language) and either a time (`at: 1m`) or the first frame where something happens
 * (`when: first-act | first-error | first-fault`, or `note: "text"`: the first note containing it).
 *
 *   moments:
 *     - { name: load-arrives, at: 1m, title: { en: Load arrives, pt-BR: A carga chega } }
 *     - { name: first-scale-up, when: first-act }
 *     - { name: instance-is-running, note: Instance is running }
 */
const MOMENT_EVENTS = ['first-act', 'first-error', 'first-fault'] as const;
export type MomentEvent = (typeof MOMENT_EVENTS)[number];

export type MomentTitle = string | { en: string; 'pt-BR'?: string | undefined };

export type MomentTrigger = { at: number } | { when: MomentEvent } | { note: string };

export type Moment = { name: string; title?: MomentTitle } & MomentTrigger;

const NAME = 'expected a moment name: lowercase letters, digits and dashes, e.g. "first-act"';
const ONE_TRIGGER = 'expected exactly one of at (a time), when (first-act, first-error, first-fault) or note (text)';

const titleField = z.union(
  [
    z.string({ error: 'expected a title (text, or { en, pt-BR })' }),
    z.strictObject({
      en: z.string({ error: 'expected the English title (text)' }),
      'pt-BR': z.string({ error: 'expected the Portuguese title (text)' }).optional(),
    }),
  ],
  { error: 'expected a title (text, or { en, pt-BR })' },
);

const momentSchema = z
  .strictObject({
    name: z.string({ error: NAME }).regex(/^[a-z0-9][a-z0-9-]*$/, { error: NAME }),
    title: titleField.optional(),
    at: durationField.optional(),
    when: z.enum(MOMENT_EVENTS, { error: `expected one of ${MOMENT_EVENTS.join(', ')}` }).optional(),
    note: z.string({ error: 'expected the text of a note' }).min(1, { error: 'expected the text of a note' }).optional(),
  })
  .refine((m) => [m.at, m.when, m.note].filter((v) => v !== undefined).length === 1, { error: ONE_TRIGGER });

export const momentsField = z.array(momentSchema, { error: 'expected a list of moments ({ name, at | when | note })' });

type ParsedMoment = z.output<typeof momentSchema>;

/** Checks what the schema cannot (unique names, times within the run) and drops absent keys. */
export function toMoments(file: string, parsed: readonly ParsedMoment[] | undefined, durationMs: number): Moment[] {
  const seen = new Set<string>();
  return (parsed ?? []).map((m, i) => {
    if (seen.has(m.name)) throw new InputError(file, `moments[${i}].name`, `expected a unique name ("${m.name}" appears twice)`);
    seen.add(m.name);
    if (m.at !== undefined && m.at > durationMs)
      throw new InputError(file, `moments[${i}].at`, `expected a time within the scenario's duration (${durationMs} ms), got ${m.at} ms`);
    const title =
      m.title === undefined
        ? {}
        : {
            title:
              typeof m.title === 'string'
                ? m.title
                : { en: m.title.en, ...(m.title['pt-BR'] !== undefined ? { 'pt-BR': m.title['pt-BR'] } : {}) },
          };
    const trigger: MomentTrigger = m.at !== undefined ? { at: m.at } : m.when !== undefined ? { when: m.when } : { note: m.note ?? '' };
    return { name: m.name, ...title, ...trigger };
  });
}

/** Events any scenario can be deep-linked to, declared or not (`moment=first-act`). */
export const BUILTIN_MOMENTS: readonly Moment[] = MOMENT_EVENTS.map((when) => ({ name: when, when }));

/** Timeline entries and faults injected by hand are recorded with these events (sim/runner.ts applyChange). */
const FAULT_EVENTS = new Set(['world.timeline', 'world.inject']);

/** Whether a frame is where an event-triggered moment happens (the first such frame is the moment). */
function frameMatches(trigger: Exclude<MomentTrigger, { at: number }>, frame: Frame): boolean {
  if ('note' in trigger) return frame.note?.includes(trigger.note) ?? false;
  switch (trigger.when) {
    case 'first-act':
      return frame.phase === 'act';
    case 'first-error':
      return frame.phase === 'error';
    case 'first-fault':
      return FAULT_EVENTS.has(frame.event);
  }
}

/**
 * The index of the frame that shows a moment in the frames recorded so far: for a time, the last
 * frame at or before it; for an event, the first frame where it happens. Undefined when it has not
 * happened yet (the run may still reach it).
 */
export function momentIndex(moment: Moment, frames: readonly Frame[]): number | undefined {
  if ('at' in moment) {
    const last = frames.at(-1);
    if (!last || last.t < moment.at) return undefined;
    let i = 0;
    while (i + 1 < frames.length && frames[i + 1]!.t <= moment.at) i++;
    return i;
  }
  const i = frames.findIndex((f) => frameMatches(moment, f));
  return i < 0 ? undefined : i;
}

/** The title in a language (the English title, then the name, when there is none). */
export function momentTitle(moment: Moment, lang: string): string {
  const title = moment.title;
  if (title === undefined) return moment.name;
  if (typeof title === 'string') return title;
  return (lang === 'pt-BR' ? title['pt-BR'] : undefined) ?? title.en;
}
