import { z } from 'zod';
import { parseBytes, parseDuration } from '../units';
import type { HpaConfig } from '../../machines/incus-hpa';
import type { PolicyModuleHost } from '../user-controller/policy-hook';
import { loadPolicyModule } from '../user-controller/policy-hook';
import { DEFAULT_CONFIG, POLICY_NAMES } from '../../machines/incus-hpa';
import { KUBERNETES_RELEASES } from '../../machines/hpa-algorithm/release';
import { namedError } from './suggest';

const count = (what: string) =>
  z
    .number({ error: `expected ${what}: a whole number ≥ 0` })
    .int({ error: `expected ${what}: a whole number ≥ 0` })
    .min(0, { error: `expected ${what}: a whole number ≥ 0` });
const percent = z
  .number({ error: 'expected a percentage: a whole number from 1 to 100' })
  .int({ error: 'expected a percentage: a whole number from 1 to 100' })
  .min(1, { error: 'expected a percentage: a whole number from 1 to 100' })
  .max(100, { error: 'expected a percentage: a whole number from 1 to 100' });
export const durationField = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const ms = parseDuration(v);
  if (ms === null) {
    ctx.addIssue({ code: 'custom', message: `expected a duration like "15s", "2m", "1h30m" or milliseconds, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return ms;
});
export const bytesField = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const b = parseBytes(v);
  if (b === null) {
    ctx.addIssue({ code: 'custom', message: `expected a size like "512MiB", "1GiB", "1GB" or bytes, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return b;
});

/** The seed's hpa.yaml block, unchanged: `HPA: {minPods, maxPods, cpuThreshold, memoryThreshold}`. */
const seedBlock = z.strictObject({
  minPods: count('a pod count').optional(),
  maxPods: count('a pod count').optional(),
  cpuThreshold: percent.optional(),
  memoryThreshold: percent.optional(),
});

/** hpa.yaml as loopscope reads it: the seed's block plus loopscope's own (optional) keys. */
export const hpaConfigFileSchema = z.strictObject({
  HPA: seedBlock.optional(),
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { error: 'expected a name of lowercase letters, digits and dashes' })
    .optional(),
  // A built-in policy, or the user's own: a module exporting policy(input) → Decision (sandboxed).
  policy: z
    .union(
      [z.enum(POLICY_NAMES as [string, ...string[]]), z.strictObject({ module: z.string().min(1) })], // cast: POLICY_NAMES is a non-empty list
      { error: namedError(`expected one of ${POLICY_NAMES.join(', ')} or { module: ./my-policy.ts }`, POLICY_NAMES) },
    )
    .optional(),
  period: durationField.optional(),
  namePrefix: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, { error: 'expected an instance-name prefix (lowercase letters, digits, dashes)' })
    .optional(),
  limitsMemory: bytesField.optional(),
  backoff: z.strictObject({ initial: durationField.optional(), max: durationField.optional() }).optional(),
  tolerance: z.number({ error: 'expected a number from 0 to 1' }).min(0).max(1).optional(),
  downscaleStabilization: durationField.optional(),
  kubernetesRelease: z
    .enum(KUBERNETES_RELEASES, { error: `expected one of ${KUBERNETES_RELEASES.map((r) => `"${r}"`).join(', ')} (a quoted string)` })
    .optional(),
});

type ParsedFile = z.output<typeof hpaConfigFileSchema>;

/** Where a parsed file came from: a `policy: { module }` is loaded relative to `file` with
 * `policies` (none in the lab), and its errors name `${prefix}policy.module` (the lab's editor
 * passes nothing: its file is hpa.yaml). */
export interface ConfigSource {
  file: string;
  prefix: string;
  policies?: PolicyModuleHost | undefined;
}

/** Flattens a parsed file onto a base config (defaults, or the running config for live edits). */
export function toHpaConfig(
  file: ParsedFile,
  base: HpaConfig = DEFAULT_CONFIG,
  source: ConfigSource = { file: 'hpa.yaml', prefix: '' },
): HpaConfig {
  const c: HpaConfig = { ...base };
  if (file.HPA?.minPods !== undefined) c.minPods = file.HPA.minPods;
  if (file.HPA?.maxPods !== undefined) c.maxPods = file.HPA.maxPods;
  if (file.HPA?.memoryThreshold !== undefined) c.memoryThreshold = file.HPA.memoryThreshold;
  if (file.HPA?.cpuThreshold !== undefined) c.cpuThreshold = file.HPA.cpuThreshold;
  if (file.name !== undefined) c.name = file.name;
  if (typeof file.policy === 'string')
    c.policy = file.policy as HpaConfig['policy']; // cast: the schema's enum admits only POLICY_NAMES
  else if (file.policy !== undefined)
    c.policy = loadPolicyModule(source.policies, source.file, `${source.prefix}policy.module`, file.policy.module);
  if (file.period !== undefined) c.periodMs = file.period;
  if (file.namePrefix !== undefined) c.namePrefix = file.namePrefix;
  if (file.limitsMemory !== undefined) c.limitsMemoryBytes = file.limitsMemory;
  if (file.backoff?.initial !== undefined) c.backoffInitialMs = file.backoff.initial;
  if (file.backoff?.max !== undefined) c.backoffMaxMs = file.backoff.max;
  if (file.tolerance !== undefined) c.tolerance = file.tolerance;
  if (file.downscaleStabilization !== undefined) c.downscaleStabilizationMs = file.downscaleStabilization;
  if (file.kubernetesRelease !== undefined) c.kubernetesRelease = file.kubernetesRelease;
  return c;
}

/**
 * Bounds every hpa.yaml must respect, simulated or real:
 * - Node's timers hold a 32-bit signed millisecond count: a delay of 2^31 ms (≈ 24.86 days) or
 *   more fires after 1 ms (Node docs, setTimeout: "When delay is larger than 2147483647 or less
 *   than 1, the delay will be set to 1"), so a real loop would run back-to-back.
 * - A period under 100 ms leaves no time to observe: one list of instances takes tens to
 *   hundreds of ms (370 ms with 20 containers here), so the loop would only hammer the daemon.
 *   Kubernetes' HPA syncs every 15 s; the lab's systemd unit every 10 s.
 * - Memory limits: Incus parses limits.memory into an int64 of bytes; loopscope keeps bytes in a
 *   JS number, exact up to 2^53−1 (8 PiB), far above any host.
 * - Pods: real mode runs every pod on one Incus host (or cluster); 1000 is far above what a
 *   host holds and keeps a run's memory and the explorer's states bounded.
 */
const LIMITS = {
  maxTimerMs: 2 ** 31 - 1,
  minPeriodMs: 100,
  minBackoffMs: 100,
  maxMemoryBytes: Number.MAX_SAFE_INTEGER,
  maxPods: 1000,
} as const;

const days = (ms: number) => `${(ms / 86_400_000).toFixed(2)} days`;
const timerLimit = `at most 2147483647 ms (${days(LIMITS.maxTimerMs)}: Node timers overflow beyond)`;

/** Cross-field rules and bounds, reported against the field a user would fix. */
export function configProblems(c: HpaConfig): { field: string; expected: string }[] {
  const out: { field: string; expected: string }[] = [];
  if (c.minPods > c.maxPods)
    out.push({ field: 'HPA.maxPods', expected: `expected maxPods ≥ minPods (minPods is ${c.minPods}, maxPods is ${c.maxPods})` });
  if (c.maxPods < 1) out.push({ field: 'HPA.maxPods', expected: 'expected maxPods ≥ 1' });
  if (c.maxPods > LIMITS.maxPods) out.push({ field: 'HPA.maxPods', expected: `expected at most ${LIMITS.maxPods} pods, got ${c.maxPods}` });
  if (c.minPods > LIMITS.maxPods) out.push({ field: 'HPA.minPods', expected: `expected at most ${LIMITS.maxPods} pods, got ${c.minPods}` });
  const timer = (field: string, ms: number, min: number, what: string) => {
    if (ms < min) out.push({ field, expected: `expected ${what} of at least ${min} ms, got ${ms} ms` });
    else if (ms > LIMITS.maxTimerMs) out.push({ field, expected: `expected ${what} of ${timerLimit}, got ${days(ms)}` });
  };
  timer('period', c.periodMs, LIMITS.minPeriodMs, 'a period');
  timer('backoff.initial', c.backoffInitialMs, LIMITS.minBackoffMs, 'a backoff');
  timer('backoff.max', c.backoffMaxMs, LIMITS.minBackoffMs, 'a backoff');
  if (c.backoffMaxMs < c.backoffInitialMs) out.push({ field: 'backoff.max', expected: 'expected backoff.max ≥ backoff.initial' });
  timer('downscaleStabilization', c.downscaleStabilizationMs, 0, 'a window');
  if (c.limitsMemoryBytes > LIMITS.maxMemoryBytes)
    out.push({
      field: 'limitsMemory',
      expected: `expected at most 8PiB (${LIMITS.maxMemoryBytes} bytes), got ${c.limitsMemoryBytes} bytes`,
    });
  return out;
}
