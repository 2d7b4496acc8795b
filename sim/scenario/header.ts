import { z } from 'zod';
import { durationField } from './hpa-config';
import type { Moment } from './moments';
import { momentsField, toMoments } from './moments';

/**
 * The header every scenario shares, whatever its loop: `loop`, `name`, `description`, `seed`,
 * `duration`, `moments` (named chapters, ./moments) — one schema, so every loop words its errors the same way. A loop's schema spreads
 * `headerShape(loop)` into its own object and reads the header back with `headerOf`.
 */
const SEED = 'expected a whole number ≥ 0';

export function headerShape<L extends string>(loop: L) {
  return {
    loop: z.literal(loop, { error: `expected "${loop}"` }),
    name: z.string({ error: 'expected a name (text)' }).optional(),
    description: z.string({ error: 'expected a description (text)' }).optional(),
    seed: z.number({ error: SEED }).int({ error: SEED }).min(0, { error: SEED }).optional(),
    duration: durationField.optional(),
    moments: momentsField.optional(),
  };
}

export interface ScenarioHeader {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  moments: Moment[];
}

/** The header's values with their defaults: the file's name, seed 1 (or the --seed override), the loop's duration. */
export function headerOf(
  file: string,
  name: string,
  s: {
    name?: string | undefined;
    description?: string | undefined;
    seed?: number | undefined;
    duration?: number | undefined;
    moments?: Parameters<typeof toMoments>[1];
  },
  seedOverride: number | undefined,
  defaultDurationMs: number,
): ScenarioHeader {
  const durationMs = s.duration ?? defaultDurationMs;
  return {
    file,
    name: s.name ?? name,
    description: s.description ?? '',
    seed: seedOverride ?? s.seed ?? 1,
    durationMs,
    moments: toMoments(file, s.moments, durationMs),
  };
}
