import { parse, stringify } from 'yaml';
import type { ResourceConfig, Scalar } from '../../../machines/terraform';
import { parseResources } from '../../../sim/loops/terraform';
import { InputError, InputErrors } from '../../../sim/scenario/errors';

const FILE = 'main.tf';

/** The configuration as the scenario writes it (`resource:` + arguments, depends_on, lifecycle). */
export function resourcesToYaml(resources: readonly ResourceConfig[]): string {
  return stringify(
    resources.map((r) => {
      const lc = r.lifecycle;
      const lifecycle = {
        ...(lc.createBeforeDestroy ? { create_before_destroy: true } : {}),
        ...(lc.preventDestroy ? { prevent_destroy: true } : {}),
        ...(lc.ignoreChanges.length ? { ignore_changes: lc.ignoreChanges } : {}),
      };
      return {
        resource: r.address,
        ...r.attrs,
        ...(r.dependsOn.length ? { depends_on: r.dependsOn } : {}),
        ...(Object.keys(lifecycle).length ? { lifecycle } : {}),
      };
    }),
  );
}

/** An edit of the configuration: the new resources, or every problem (file: field: expected …). */
export function parseResourcesEdit(text: string): { ok: true; resources: ResourceConfig[] } | { ok: false; errors: string[] } {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    return { ok: false, errors: [`${FILE}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`] };
  }
  try {
    return { ok: true, resources: parseResources(FILE, 'resources', doc) };
  } catch (e) {
    if (e instanceof InputErrors) return { ok: false, errors: e.errors.map((x) => x.message) };
    if (e instanceof InputError) return { ok: false, errors: [e.message] };
    throw e;
  }
}

/** `key=value` for a drift: the value as Terraform would read it (number, bool, or string). */
export function parseDrift(
  text: string,
  resource: ResourceConfig | undefined,
): { ok: true; set: Record<string, Scalar> } | { ok: false; error: string } {
  const m = /^\s*([a-z_][a-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(text);
  if (!m) return { ok: false, error: `drift: expected argument=value (e.g. instance_type=t3.large), got ${JSON.stringify(text)}` };
  const key = m[1] ?? '';
  const raw = m[2] ?? '';
  const known = Object.keys(resource?.attrs ?? {});
  if (!known.includes(key))
    return { ok: false, error: `drift.${key}: expected an argument of ${resource?.address ?? 'the resource'} (${known.join(', ')})` };
  const value: Scalar =
    raw === 'true' ? true : raw === 'false' ? false : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw.replace(/^"(.*)"$/, '$1');
  if (resource?.attrs[key] === value)
    return { ok: false, error: `drift.${key}: expected a change (it is already ${JSON.stringify(value)})` };
  return { ok: true, set: { [key]: value } };
}
