import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner, parseScenarioText } from '../../sim/loops';
import type { TerraformLoopConfig } from '../../sim/loops/terraform';
import { parseDrift, parseResourcesEdit, resourcesToYaml } from '../../web/worlds/terraform/configEdit';

const ROOT = join(import.meta.dirname, '../..');
const open = (id: string) => parseScenarioText(`scenarios/${id}.yaml`, id, readFileSync(join(ROOT, 'scenarios', `${id}.yaml`), 'utf8'));

describe("the lab's Terraform edits (web/worlds/terraform/configEdit.ts)", () => {
  it('the configuration round-trips through the editor unchanged', () => {
    for (const id of ['terraform-drift', 'terraform-replace-data-loss', 'terraform-crashed-lock']) {
      const resources = (open(id).scenario.config as TerraformLoopConfig).resources;
      const back = parseResourcesEdit(resourcesToYaml(resources));
      expect(back).toEqual({ ok: true, resources });
    }
  });

  it('a bad edit names the field and what was expected', () => {
    const r = parseResourcesEdit('- resource: aws_instance.web\n  ami: ami-1\n  colour: red\n- resource: aws_bogus.x\n');
    expect(r.ok).toBe(false);
    const errors = r.ok ? [] : r.errors;
    expect(errors.join('\n')).toMatch(/main\.tf: resources\[0\]\.colour: expected an argument of aws_instance/);
    expect(errors.join('\n')).toMatch(/main\.tf: resources\[1\]\.resource: expected a resource type this model knows/);
    expect(parseResourcesEdit('[]')).toEqual({ ok: false, errors: ['main.tf: resources: expected at least one resource'] });
    expect(parseResourcesEdit('- {').ok).toBe(false);
  });

  it('a drift must name an argument of the resource and change it', () => {
    const resources = (open('terraform-drift').scenario.config as TerraformLoopConfig).resources;
    const r = resources.find((x) => Object.keys(x.attrs).length > 0)!;
    const [key, value] = Object.entries(r.attrs)[0]!;
    expect(parseDrift('nonsense', r)).toMatchObject({ ok: false, error: expect.stringMatching(/expected argument=value/) });
    expect(parseDrift('not_an_arg=1', r)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/drift\.not_an_arg: expected an argument of/),
    });
    expect(parseDrift(`${key}=${String(value)}`, r)).toMatchObject({ ok: false, error: expect.stringMatching(/expected a change/) });
    expect(parseDrift(`${key}=changed-by-hand`, r)).toEqual({ ok: true, set: { [key]: 'changed-by-hand' } });
    expect(parseDrift('x=42', { ...r, attrs: { x: 1 } })).toEqual({ ok: true, set: { x: 42 } });
  });

  it('an edit and the interventions go through the runner like every loop: the next run plans against them', () => {
    const { entry, scenario } = open('terraform-drift');
    const runner = createRunner(entry, scenario).run(60_000);
    const config = runner.config as TerraformLoopConfig;
    const [first, ...rest] = config.resources;
    runner.update({
      resources: rest.length ? rest.filter((r) => !r.dependsOn.includes(first!.address)) : config.resources,
    } satisfies Partial<TerraformLoopConfig>);
    expect(runner.frames.at(-1)!.event).toBe('CONFIG.UPDATE');
    runner.inject({ kind: 'crash' });
    expect(runner.frames.at(-1)!.event).toBe('controller.restart');
  });
});
