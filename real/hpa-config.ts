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
});

/** What real mode adds to the machine's config; the actors read it when they create a pod. */
export interface RealSettings {
  image: string;
  profiles: string[];
}

export interface RealHpaConfig {
  file: string;
  config: HpaConfig;
  settings: RealSettings;
}

export const DEFAULT_REAL_SETTINGS: RealSettings = { image: 'loopscope-busybox', profiles: ['default'] };

/** Validates a parsed hpa.yaml; throws InputErrors naming the file and field. */
export function parseRealHpaConfig(file: string, doc: unknown, policyOverride?: string): RealHpaConfig {
  const parsed = realHpaConfigFileSchema.safeParse(doc ?? {});
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const { image, profiles, ...rest } = parsed.data;
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
    settings: { image: image ?? DEFAULT_REAL_SETTINGS.image, profiles: profiles ?? DEFAULT_REAL_SETTINGS.profiles },
  };
}

export function loadRealHpaConfig(file: string, policyOverride?: string): RealHpaConfig {
  return parseRealHpaConfig(file, readYamlFile(file), policyOverride);
}
