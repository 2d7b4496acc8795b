// hpa.yaml for real mode: the simulator's config file (sim/scenario/hpa-config.ts) plus the keys
// only a real host needs — which image to launch and with which profiles.
import { z } from 'zod';
import type { HpaConfig, ModulePolicy } from '../machines/incus-hpa';
import { DEFAULT_CONFIG, POLICY_NAMES } from '../machines/incus-hpa';
import { InputError, InputErrors, issuesToErrors } from '../sim/scenario/errors';
import { configProblems, hpaConfigFileSchema, toHpaConfig } from '../sim/scenario/hpa-config';
import { readYamlFile } from '../sim/scenario/load';
import { didYouMean } from '../sim/scenario/suggest';
import { probePolicyModule } from '../sim/user-controller/policy-hook';
import { loadPolicyModuleFile } from '../sim/user-controller/policy-module';
import type { Placement } from './placement';
import { isOneOf } from '../sim/one-of';

/** Incus names: image aliases and profiles are free text but never empty or with a slash. */
const incusName = (what: string) =>
  z.string({ error: `expected ${what}` }).regex(/^[^/\s][^/]*$/, { error: `expected ${what} (non-empty, no slash)` });

/**
 * The HPA's name has no default in real mode: created pods carry it as their owner key, so a
 * file without it (empty, only comments, or saved half way) would run as the default HPA `hpa`,
 * orphaning this HPA's pods or acting on another's. The simulator's files may omit it.
 */
const NAME_EXPECTED = "expected the HPA's name (its pods are owned by it; no default)";
const kindOf = (v: unknown) =>
  v === undefined || v === null ? 'nothing' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `a ${typeof v}`;
const requiredName = z
  .string({ error: (issue) => `${NAME_EXPECTED}, got ${kindOf(issue.input)}` })
  // The simulator's rule for a name (lowercase letters, digits and dashes), applied once present.
  .pipe(hpaConfigFileSchema.shape.name.unwrap());

const PLACEMENT_EXPECTED = 'expected scheduler, spread, or { target: <cluster member name, or @group> }';
const TARGET_EXPECTED = 'expected a cluster member name, or @ and a cluster group name (letters, digits, dot, dash; at most 63)';

const realHpaConfigFileSchema = hpaConfigFileSchema.extend({
  name: requiredName,
  /** Image alias (or fingerprint) created pods are launched from. */
  image: incusName('an image alias').optional(),
  /** Profiles given to created pods (Incus default: ["default"]). */
  profiles: z.array(incusName('a profile name'), { error: 'expected a list of profile names' }).optional(),
  /** Creates/deletes run at once at most (slow start 1, 2, 4 … up to this; fixed and kubernetes only). */
  maxParallel: z
    .number({ error: 'expected a whole number from 1 to 64' })
    .int({ error: 'expected a whole number from 1 to 64' })
    .min(1, { error: 'expected a whole number from 1 to 64' })
    .max(64, { error: 'expected a whole number from 1 to 64' })
    .optional(),
  /** Incus project of the pods (the command line's --project wins). */
  project: z
    .string({ error: 'expected an Incus project name' })
    .regex(/^[^/\s?#&]{1,63}$/, { error: 'expected an Incus project name (1–63 characters, no slash, space, ?, # or &)' })
    .optional(),
  /** Where created pods go in an Incus cluster (real/placement.ts): scheduler (default), spread, or { target: member | @group }. */
  placement: z
    .union(
      [
        z.enum(['scheduler', 'spread']),
        // Checked in placementSetting: a union would report only its own message for a bad target.
        z.looseObject({ target: z.unknown() }),
      ],
      { error: PLACEMENT_EXPECTED },
    )
    .optional(),
  /** Incus remote: an incus CLI remote name or https://host[:port] (the command line's --remote wins). */
  remote: z
    .string({ error: 'expected an incus remote name or https:// URL' })
    .min(1, { error: 'expected an incus remote name or https:// URL' })
    .max(2048, { error: 'expected an incus remote name or https:// URL' })
    .optional(),
});

/** What real mode adds to the machine's config; the actors read it when they create a pod. */
export interface RealSettings {
  image: string;
  profiles: string[];
  maxParallel: number;
  /** Cluster placement of created pods (absent: the cluster's scheduler). */
  placement?: Placement;
}

export interface RealHpaConfig {
  file: string;
  config: HpaConfig;
  settings: RealSettings;
  /** Where the pods live, from the file (the command line's --project/--remote override them). */
  project?: string;
  remote?: string;
  /** The key paths the file set (e.g. `HPA.maxPods`, `backoff.max`): a live edit may not drop one. */
  keys?: string[];
}

/** Key paths of a parsed YAML mapping, two levels deep (hpa.yaml nests at most once). */
function keyPaths(doc: unknown): string[] {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return [];
  return Object.entries(doc).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? [k, ...Object.keys(v).map((c) => `${k}.${c}`)] : [k],
  );
}

export const DEFAULT_REAL_SETTINGS: RealSettings = { image: 'loopscope-busybox', profiles: ['default'], maxParallel: 8 };

/** Validates a parsed hpa.yaml; throws InputErrors naming the file and field. A policy module it
 * names (`policy: { module: ./my-policy.ts }`) runs sandboxed, loaded into `policies`: the run's
 * own modules, which its machine is provided with (RealRunnerOptions.policies). */
export function parseRealHpaConfig(
  file: string,
  doc: unknown,
  policyOverride?: string,
  policies = new Map<string, ModulePolicy>(),
): RealHpaConfig {
  // Empty, whitespace or only comments: YAML's null document.
  if (doc === null || doc === undefined) throw new InputError(file, 'name', `${NAME_EXPECTED}, got an empty file`);
  const parsed = realHpaConfigFileSchema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const { image, profiles, maxParallel, project, remote, placement, ...rest } = parsed.data;
  const config = toHpaConfig(rest, DEFAULT_CONFIG, { file, prefix: '', policies: { load: loadPolicyModuleFile, loaded: policies } });
  if (policyOverride !== undefined) {
    if (!isOneOf(POLICY_NAMES, policyOverride)) {
      throw new InputError(
        '--policy',
        '',
        `expected one of ${POLICY_NAMES.join(', ')}, got "${policyOverride}"${didYouMean(policyOverride, POLICY_NAMES)}`,
      );
    }
    config.policy = policyOverride;
  }
  const problems = configProblems(config).map((p) => new InputError(file, p.field, p.expected));
  if (config.limitsMemoryBytes > 0 && config.limitsMemoryBytes < 8 * 1024 ** 2) {
    problems.push(new InputError(file, 'limitsMemory', 'expected at least 8MiB (a container cannot start below that)'));
  }
  if (config.namePrefix.length + 8 > 63)
    problems.push(new InputError(file, 'namePrefix', 'expected at most 55 characters (8 hex digits are appended)'));
  if (problems.length) throw new InputErrors(problems);
  probePolicyModule(file, 'policy.module', config, policies);
  return {
    file,
    config,
    settings: {
      image: image ?? DEFAULT_REAL_SETTINGS.image,
      profiles: profiles ?? DEFAULT_REAL_SETTINGS.profiles,
      maxParallel: maxParallel ?? DEFAULT_REAL_SETTINGS.maxParallel,
      ...placementSetting(file, placement),
    },
    ...(project !== undefined ? { project } : {}),
    ...(remote !== undefined ? { remote } : {}),
    keys: keyPaths(doc),
  };
}

function placementSetting(file: string, p: 'scheduler' | 'spread' | Record<string, unknown> | undefined): { placement?: Placement } {
  if (p === undefined || p === 'scheduler') return {};
  if (p === 'spread') return { placement: { kind: 'spread' } };
  const extra = Object.keys(p).filter((k) => k !== 'target');
  if (extra.length)
    throw new InputErrors(
      extra.map(
        (k) => new InputError(file, `placement.${k}`, `unknown key${didYouMean(k, ['target']) || ' (placement takes only target)'}`),
      ),
    );
  const { target } = p;
  if (typeof target !== 'string' || !/^@?[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/.test(target))
    throw new InputError(file, 'placement.target', TARGET_EXPECTED);
  return { placement: { kind: 'target', target } };
}

export function loadRealHpaConfig(file: string, policyOverride?: string, policies = new Map<string, ModulePolicy>()): RealHpaConfig {
  return parseRealHpaConfig(file, readYamlFile(file), policyOverride, policies);
}

/** A name can also move with its pods (real/rename.ts). */
const renameHint = (file: string, to: string | undefined) =>
  ` — or, to keep the pods under the new name: stop loopscope and run \`loopscope real rename --config ${file} --to ${to ?? 'NEW'}\``;
/** How to change what a running loop is: the one message every refused identity edit ends with. */
const HANDOVER =
  "cannot change while the loop runs (its pods are found by it: the loop would abandon them, or count another HPA's). " +
  "To hand over: stop loopscope, edit the file, start it again — the new identity adopts nothing of the old one's pods (delete them first, or keep the old value)";

/**
 * A live edit of hpa.yaml while the loop runs. It is applied only when the new file parses and
 * validates completely, keeps the loop's identity, and differs; otherwise the loop keeps its
 * current config (the caller reports the refusal).
 * - An empty document is refused: a file saved in place (`: > hpa.yaml`, some editors) is empty for
 *   a moment, and "all defaults" would make the running loop another HPA (name hpa, prefix pod).
 * - A document missing a key the running file set is refused as partial (a write caught half
 *   way): a dropped key would silently fall back to its default. To return a key to its default,
 *   write the default value.
 * - Identity — `name`, `namePrefix` (which instances this loop owns), `project`, `remote` (where
 *   they live) — cannot change: see HANDOVER.
 * Returns undefined when the edit changes nothing. A policy module it names loads into `policies`
 * (the running machine's, so an edited module decides from its next period).
 */
export function parseLiveEdit(
  current: RealHpaConfig,
  doc: unknown,
  policyOverride?: string,
  policies = new Map<string, ModulePolicy>(),
): RealHpaConfig | undefined {
  const file = current.file;
  const empty = doc === null || doc === undefined || (typeof doc === 'object' && Object.keys(doc).length === 0);
  if (empty) throw new InputError(file, '', 'expected the HPA settings (the file is empty: an edit being saved in place?)');
  const next = parseRealHpaConfig(file, doc, policyOverride, policies);
  const dropped = (current.keys ?? []).filter((k) => !(next.keys ?? []).includes(k));
  if (dropped.length) {
    throw new InputErrors(
      dropped.map(
        (k) =>
          new InputError(
            file,
            k,
            'expected this key, set in the running config (a partial file? to return it to its default, write the default value)',
          ),
      ),
    );
  }
  const problems: InputError[] = [];
  const same = (field: string, was: string | undefined, now: string | undefined) => {
    if (was !== now)
      problems.push(
        new InputError(
          file,
          field,
          `expected ${was === undefined ? 'no value' : `"${was}"`}: ${field} ${HANDOVER}${field === 'name' ? renameHint(file, now) : ''}`,
        ),
      );
  };
  same('name', current.config.name, next.config.name);
  same('namePrefix', current.config.namePrefix, next.config.namePrefix);
  same('project', current.project, next.project);
  same('remote', current.remote, next.remote);
  if (problems.length) throw new InputErrors(problems);
  const { keys: _k, ...a } = current;
  const { keys: _n, ...b } = next;
  return JSON.stringify(a) === JSON.stringify(b) ? undefined : next;
}
