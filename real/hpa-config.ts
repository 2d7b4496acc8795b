// hpa.yaml for real mode: the simulator's config file (sim/scenario/hpa-config.ts) plus the keys
// only a real host needs — which image to launch and with which profiles.
import { z } from 'zod';
import type { HpaConfig } from '../machines/incus-hpa';
import { DEFAULT_CONFIG, POLICY_NAMES } from '../machines/incus-hpa';
import { InputError, InputErrors, issuesToErrors } from '../sim/scenario/errors';
import { configProblems, hpaConfigFileSchema, toHpaConfig } from '../sim/scenario/hpa-config';
import { readYamlFile } from '../sim/scenario/load';

/** Incus names: image aliases and profiles are free text but never empty or with a slash. */
const incusName = (what: string) => z.string({ error: `expected ${what}` })
  .regex(/^[^/\s][^/]*$/, { error: `expected ${what} (non-empty, no slash)` });

export const realHpaConfigFileSchema = hpaConfigFileSchema.extend({
  /** Image alias (or fingerprint) created pods are launched from. */
  image: incusName('an image alias').optional(),
  /** Profiles given to created pods (Incus default: ["default"]). */
  profiles: z.array(incusName('a profile name'), { error: 'expected a list of profile names' }).optional(),
  /** Creates/deletes run at once at most (slow start 1, 2, 4 … up to this; fixed and kubernetes only). */
  maxParallel: z.number({ error: 'expected a whole number from 1 to 64' }).int({ error: 'expected a whole number from 1 to 64' })
    .min(1, { error: 'expected a whole number from 1 to 64' }).max(64, { error: 'expected a whole number from 1 to 64' }).optional(),
});

/** What real mode adds to the machine's config; the actors read it when they create a pod. */
export interface RealSettings {
  image: string;
  profiles: string[];
  maxParallel: number;
}

export interface RealHpaConfig {
  file: string;
  config: HpaConfig;
  settings: RealSettings;
}

export const DEFAULT_REAL_SETTINGS: RealSettings = { image: 'loopscope-busybox', profiles: ['default'], maxParallel: 8 };

/** Validates a parsed hpa.yaml; throws InputErrors naming the file and field. */
export function parseRealHpaConfig(file: string, doc: unknown, policyOverride?: string): RealHpaConfig {
  const parsed = realHpaConfigFileSchema.safeParse(doc ?? {});
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const { image, profiles, maxParallel, ...rest } = parsed.data;
  const config = toHpaConfig(rest, DEFAULT_CONFIG);
  if (policyOverride !== undefined) {
    if (!(POLICY_NAMES as readonly string[]).includes(policyOverride)) {
      throw new InputError('--policy', '', `expected one of ${POLICY_NAMES.join(', ')}, got "${policyOverride}"`);
    }
    config.policy = policyOverride as HpaConfig['policy'];
  }
  const problems = configProblems(config).map((p) => new InputError(file, p.field, p.expected));
  if (config.limitsMemoryBytes > 0 && config.limitsMemoryBytes < 8 * 1024 ** 2) {
    problems.push(new InputError(file, 'limitsMemory', 'expected at least 8MiB (a container cannot start below that)'));
  }
  if (config.namePrefix.length + 8 > 63) problems.push(new InputError(file, 'namePrefix', 'expected at most 55 characters (8 hex digits are appended)'));
  if (problems.length) throw new InputErrors(problems);
  return {
    file,
    config,
    settings: { image: image ?? DEFAULT_REAL_SETTINGS.image, profiles: profiles ?? DEFAULT_REAL_SETTINGS.profiles,
      maxParallel: maxParallel ?? DEFAULT_REAL_SETTINGS.maxParallel },
  };
}

export function loadRealHpaConfig(file: string, policyOverride?: string): RealHpaConfig {
  return parseRealHpaConfig(file, readYamlFile(file), policyOverride);
}

/**
 * A live edit of hpa.yaml while the loop runs; the loop keeps its last config when it is refused.
 * - An empty document is refused: a file saved in place (`: > hpa.yaml`, some editors) is empty for
 *   a moment, and "all defaults" would make the running loop another HPA (name hpa, prefix pod).
 * - `name` and `namePrefix` cannot change: they say which instances this loop owns, and a new
 *   owner key would abandon the running pods. Stop loopscope and start it with the new file.
 */
export function parseLiveEdit(current: RealHpaConfig, doc: unknown, policyOverride?: string): RealHpaConfig {
  const file = current.file;
  const empty = doc === null || doc === undefined || (typeof doc === 'object' && Object.keys(doc).length === 0);
  if (empty) throw new InputError(file, '', 'expected the HPA settings (the file is empty: an edit being saved in place?)');
  const next = parseRealHpaConfig(file, doc, policyOverride);
  const problems: InputError[] = [];
  const restart = 'while the loop runs (it would abandon the pods it owns): stop loopscope and start it with the new file';
  if (next.config.name !== current.config.name) problems.push(new InputError(file, 'name', `expected "${current.config.name}" ${restart}`));
  if (next.config.namePrefix !== current.config.namePrefix) problems.push(new InputError(file, 'namePrefix', `expected "${current.config.namePrefix}" ${restart}`));
  if (problems.length) throw new InputErrors(problems);
  return next;
}
