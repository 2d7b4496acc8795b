import { z } from 'zod';
import { KUBERNETES_RELEASES } from '../../machines/hpa-algorithm/release';
import { InputErrors, issuesToErrors } from '../scenario/errors';
import { durationField } from '../scenario/hpa-config';
import { namedError } from '../scenario/suggest';

/**
 * `options:` of a scenario whose controller is the HPA: kube-controller-manager's HPA flags and
 * the release to follow. Durations are written like "5m"; the reconciler reads milliseconds.
 */
const hpaOptionsSchema = z.strictObject({
  policy: z.enum(['kubernetes', 'seed'], { error: namedError('expected kubernetes or seed', ['kubernetes', 'seed']) }).optional(),
  kubernetesRelease: z
    .enum(KUBERNETES_RELEASES, { error: `expected one of ${KUBERNETES_RELEASES.map((r) => `"${r}"`).join(', ')} (a quoted string)` })
    .optional(),
  /** --horizontal-pod-autoscaler-tolerance */
  tolerance: z.number({ error: 'expected a number ≥ 0' }).min(0, { error: 'expected a number ≥ 0' }).optional(),
  /** --horizontal-pod-autoscaler-cpu-initialization-period, -initial-readiness-delay, -sync-period */
  cpuInitializationPeriod: durationField.optional(),
  initialReadinessDelay: durationField.optional(),
  syncPeriod: durationField.optional(),
  /** The sync period in ms (older scenarios). */
  syncPeriodMs: z.number().int().min(1).optional(),
});

export function parseHpaOptions(file: string, raw: Record<string, unknown>): Record<string, unknown> {
  const parsed = hpaOptionsSchema.safeParse(raw);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, 'options', parsed.error));
  const { cpuInitializationPeriod, initialReadinessDelay, syncPeriod, ...rest } = parsed.data;
  return {
    ...rest,
    ...(cpuInitializationPeriod !== undefined ? { cpuInitializationPeriodMs: cpuInitializationPeriod } : {}),
    ...(initialReadinessDelay !== undefined ? { initialReadinessDelayMs: initialReadinessDelay } : {}),
    ...(syncPeriod !== undefined ? { syncPeriodMs: syncPeriod } : {}),
  };
}
