import { stringify } from 'yaml';
import type { HpaConfig } from '../../../machines/incus-hpa';
import { InputError, InputErrors, issuesToErrors } from '../../../sim/scenario/errors';
import { configProblems, hpaConfigFileSchema, toHpaConfig } from '../../../sim/scenario/hpa-config';
import { parseYamlText } from '../../../sim/scenario/load-text';

const EDITOR_FILE = 'hpa.yaml';

/** The running config as an hpa.yaml a presenter can edit (the seed's keys first). */
export function configToYaml(c: HpaConfig): string {
  const period = c.periodMs % 1000 === 0 ? `${c.periodMs / 1000}s` : c.periodMs;
  return stringify({ HPA: { minPods: c.minPods, maxPods: c.maxPods, memoryThreshold: c.memoryThreshold }, policy: c.policy, period });
}

export type EditResult = { ok: true; change: Partial<HpaConfig> } | { ok: false; errors: string[] };

/** Validates an edited hpa.yaml against the running config, exactly as a scenario file is. */
export function parseConfigEdit(text: string, running: HpaConfig): EditResult {
  try {
    const doc = parseYamlText(EDITOR_FILE, text) ?? {};
    const parsed = hpaConfigFileSchema.safeParse(doc);
    if (!parsed.success) return { ok: false, errors: issuesToErrors(EDITOR_FILE, '', parsed.error).map((e) => e.message) };
    const next = toHpaConfig(parsed.data, running);
    const problems = configProblems(next).map((p) => new InputError(EDITOR_FILE, p.field, p.expected).message);
    if (problems.length) return { ok: false, errors: problems };
    // Only the keys the file sets: the same partial a scenario's timeline `config:` carries.
    return { ok: true, change: toHpaConfig(parsed.data, {} as HpaConfig) }; // cast: an empty base, so the result holds only the fields the change sets, used as a partial change
  } catch (e) {
    if (e instanceof InputErrors) return { ok: false, errors: e.errors.map((x) => x.message) };
    if (e instanceof InputError) return { ok: false, errors: [e.message] };
    throw e;
  }
}
