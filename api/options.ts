// The programmatic API's options, checked as the CLI checks the flags they mirror: a bad value is a
// UsageError whose message names that flag (`maxStates` → `--max-states`) with the CLI's words, so a
// script and the command line report the same line for the same mistake.
import { UsageError } from '../cli/usage';
import { parseDuration } from '../sim/units';

/** A seed: a whole number ≥ 0 (`--seed`). */
export function seedOption(seed: unknown): number | undefined {
  if (seed === undefined) return undefined;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)
    throw new UsageError('--seed', `expected a whole number ≥ 0, got "${String(seed)}"`);
  return seed;
}

/** A whole number ≥ 1 (`--depth`, `--max-states`, `--workers`, `--within`, `--max-frames`). */
export function countOption(flag: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new UsageError(flag, `expected a whole number ≥ 1, got "${String(value)}"`);
  return value;
}

/** Virtual time: text such as 30m or 2h, or a number of milliseconds ≥ 0 (`--until`). */
export function durationOption(flag: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'string' || typeof value === 'number' ? parseDuration(value) : null;
  if (ms === null) throw new UsageError(flag, `expected a duration like 30m or 2h, got "${String(value)}"`);
  return ms;
}

/** A policy name (`--policy`); whether the loop has it is the loop's to say (sim/loops/registry.ts withPolicy). */
export function policyOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError('--policy', `expected a policy name (text), got "${String(value)}"`);
  return value;
}
