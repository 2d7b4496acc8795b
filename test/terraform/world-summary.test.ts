import { describe, expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import type { AppliedChange } from '../../sim/worlds/terraform';
import type { TerraformWorldSummary } from '../../sim/loops/terraform-world-schema';
import { planRows } from '../../sim/worlds/terraform';

const change = (over: Partial<AppliedChange>): AppliedChange => ({
  run: 1,
  address: 'aws_instance.web',
  kind: 'create',
  before: null,
  after: {},
  ok: true,
  ...over,
});

describe('terraform world summary: the plan as applied, lock holder, serial', () => {
  it('groups cloud calls into plan rows with the renderer symbols', () => {
    expect(planRows([change({ after: { ami: 'a' } })])).toEqual([
      { address: 'aws_instance.web', action: 'create', symbol: '+', attrs: [{ name: 'ami', before: null, after: 'a' }], status: 'done' },
    ]);
    const update = planRows([
      change({ kind: 'update', before: { ami: 'a', type: 't3.large' }, after: { ami: 'a', type: 't3.micro' }, ok: null }),
    ])[0]!;
    expect(update).toMatchObject({
      action: 'update',
      symbol: '~',
      status: 'applying',
      attrs: [{ name: 'type', before: 't3.large', after: 't3.micro' }],
    });
    const dbc = planRows([
      change({ kind: 'delete', before: { ami: 'a' } }),
      change({ kind: 'create', after: { ami: 'b' }, ok: false }),
    ])[0]!;
    expect(dbc).toMatchObject({ action: 'replace', symbol: '-/+', status: 'failed', attrs: [{ name: 'ami', before: 'a', after: 'b' }] });
    const cbd = planRows([change({ kind: 'create', after: { ami: 'b' } }), change({ kind: 'delete', before: { ami: 'a' } })])[0]!;
    expect(cbd).toMatchObject({ action: 'replace', symbol: '+/-' });
    expect(planRows([change({ kind: 'delete', before: { ami: 'a' } })])[0]).toMatchObject({
      action: 'delete',
      symbol: '-',
      attrs: [{ name: 'ami', before: 'a', after: null }],
    });
  });

  it('terraform-drift: creates, then drift put back in place (~), then the AMI change replaces (+/-)', () => {
    const { runner, scenario } = runnerFor('scenarios/terraform-drift.yaml');
    runner.run(scenario.durationMs);
    const worlds = runner.frames.map((f) => f.world as TerraformWorldSummary);
    expect(worlds[0]!.plan).toBeNull();
    const run1 = worlds.filter((w) => w.plan?.run === 1).at(-1)!;
    expect(run1.plan!.changes.map((c) => c.symbol)).toEqual(['+', '+', '+', '+']);
    expect(run1.plan!.changes.every((c) => c.status === 'done')).toBe(true);
    const run2 = worlds.filter((w) => w.plan?.run === 2).at(-1)!;
    const sg = run2.plan!.changes.find((c) => c.address === 'aws_security_group.web')!;
    expect(sg).toMatchObject({ action: 'update', symbol: '~', attrs: [{ name: 'ingress_port', before: 22, after: 443 }] });
    const last = worlds.at(-1)!;
    expect(last.plan!.changes.find((c) => c.address === 'aws_instance.web')).toMatchObject({
      action: 'replace',
      symbol: '+/-',
      attrs: [{ name: 'ami', before: 'ami-0a1b2c3d' }],
    });
    // Lock holder while a run holds it; the serial grows with every state write.
    expect(worlds.some((w) => w.lockHolder === 'ci@runner-1' && w.lock?.who === 'ci@runner-1')).toBe(true);
    expect(last.lockHolder).toBeNull();
    expect(last.serial).toBeGreaterThan(run1.serial);
  });

  it('terraform-replace-data-loss: a destroy-then-create replace (-/+) whose create fails', () => {
    const { runner, scenario } = runnerFor('scenarios/terraform-replace-data-loss.yaml');
    runner.run(scenario.durationMs);
    const rows = runner.frames.flatMap((f) => (f.world as TerraformWorldSummary).plan?.changes ?? []);
    expect(
      rows.some(
        (r) =>
          r.address === 'aws_db_instance.main' &&
          r.symbol === '-/+' &&
          r.status === 'failed' &&
          r.attrs.some((a) => a.name === 'engine' && a.before === 'mysql' && a.after === 'postgres'),
      ),
    ).toBe(true);
  });
});
