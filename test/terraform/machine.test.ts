import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ResourceConfig, TerraformContext } from '../../machines/terraform';
import { runnerFor } from '../../sim/loops';
import type { TerraformLoopConfig, TerraformScenario } from '../../sim/loops/terraform';
import { parseTerraformScenario, terraformBinding } from '../../sim/loops/terraform';
import { viewOf } from '../../sim/check/counterexample';
import { converged, createBeforeDestroyHonoured, stateWritesLockedAndOrdered, terraformProperties } from '../../sim/properties/terraform';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import { InputErrors } from '../../sim/scenario/errors';
import type { TerraformFault, TerraformWorld } from '../../sim/worlds/terraform';
import { createTerraformWorld } from '../../sim/worlds/terraform';
import { asIfRunRead, driveChecking, terraformRunnerFor } from './drive';

const lifecycle = { createBeforeDestroy: false, preventDestroy: false, ignoreChanges: [] };
const resources: ResourceConfig[] = [
  {
    address: 'aws_security_group.app',
    type: 'aws_security_group',
    name: 'app',
    attrs: { name: 'app', ingress_port: 80 },
    dependsOn: [],
    lifecycle,
  },
  {
    address: 'aws_instance.app',
    type: 'aws_instance',
    name: 'app',
    attrs: { ami: 'ami-1', instance_type: 't3.micro', vpc_security_group_ids: '${aws_security_group.app.id}' },
    dependsOn: [],
    lifecycle,
  },
];
function runner(
  config: Partial<TerraformLoopConfig> = {},
  timeline: TimelineEntry<TerraformFault, TerraformLoopConfig>[] = [],
): Runner<TerraformWorld, TerraformFault, TerraformLoopConfig> {
  return new Runner<TerraformWorld, TerraformFault, TerraformLoopConfig>(terraformBinding, {
    scenario: 't',
    seed: 1,
    world: createTerraformWorld(1),
    timeline,
    checkpoints: true,
    config: { resources, mode: 'apply', everyMs: 600_000, who: 'me', ...config },
  });
}
const ctx = (r: Runner<TerraformWorld, TerraformFault, TerraformLoopConfig>) => r.snapshot.context as TerraformContext;

describe('terraform machine', () => {
  it('run once: creates everything, writes the state, unlocks, and stops — not a loop', () => {
    const r = runner({ everyMs: null }).run(3 * 3_600_000);
    expect(r.stateValue).toBe('idle');
    expect(ctx(r).runs).toBe(1);
    expect(r.world.state.serial).toBe(2);
    expect(r.world.lock).toBeNull();
    expect(ctx(r).result).toMatchObject({ ok: true, exitCode: 0, applied: { added: 2, changed: 0, destroyed: 0 } });
  });

  it('on a timer it is a loop: drift is found by refresh and reverted by the next apply', () => {
    const r = runner({}, [
      { at: 5 * 60_000, fault: { kind: 'drift', address: 'aws_instance.app', set: { instance_type: 't3.xlarge' } } },
    ]).run(20 * 60_000);
    const id = r.world.state.resources['aws_instance.app']!.id;
    expect(r.world.cloud[id]!.attrs.instance_type).toBe('t3.micro');
    expect(r.world.calls.filter((c) => c.kind === 'update').map((c) => c.address)).toEqual(['aws_instance.app']);
  });

  it('plan mode: exit code 2 when changes are present, nothing touched; -refresh-only: the state follows reality, the cloud is not changed', () => {
    const p = runner({ mode: 'plan', everyMs: null }).run(3_600_000);
    expect(ctx(p).result).toMatchObject({ exitCode: 2, planned: { add: 2, change: 0, destroy: 0 } });
    expect(p.world.calls).toEqual([]);
    const ro = runner({}, [
      { at: 5 * 60_000, config: { mode: 'refresh-only' } },
      { at: 6 * 60_000, fault: { kind: 'drift', address: 'aws_instance.app', set: { instance_type: 't3.xlarge' } } },
    ]).run(20 * 60_000);
    expect(ro.world.calls.filter((c) => c.t0 > 6 * 60_000)).toEqual([]);
    expect(ro.world.state.resources['aws_instance.app']!.attrs.instance_type).toBe('t3.xlarge');
  });

  it('a crash mid-apply: the lock stays, later runs fail to lock, force-unlock lets the next run recreate (an orphan remains)', () => {
    const r = runner({}, [
      { at: 10_000, fault: { kind: 'crash' } },
      { at: 25 * 60_000, fault: { kind: 'forceUnlock' } },
    ]);
    r.run(15 * 60_000);
    expect(r.stateValue).toBe('failed');
    expect(ctx(r).lastError).toContain('Error acquiring the state lock');
    r.run(40 * 60_000);
    const managed = new Set(Object.values(r.world.state.resources).map((s) => s.id));
    const instances = Object.values(r.world.cloud).filter((o) => o.type === 'aws_instance');
    expect(instances).toHaveLength(2);
    expect(instances.filter((o) => !managed.has(o.id))).toHaveLength(1);
  });

  it('force-unlock while a run is alive lets a stale writer write without the lock — the property catches it', () => {
    const r = runner({ everyMs: null }, [{ at: 10_000, fault: { kind: 'forceUnlock' } }]);
    expect(driveChecking(r, 3_600_000, [stateWritesLockedAndOrdered])).toMatchObject({ property: 'state-writes-locked-and-ordered' });
    r.run(3_600_000);
    expect(stateWritesLockedAndOrdered.holds(viewOf(r))).toBe(false);
    expect(ctx(r).lastError).toContain('Error releasing the state lock');
  });

  it('create_before_destroy whose new object comes back tainted: the prior object stays in the state, deposed, and the next run destroys it', () => {
    const cbd = resources.map((x) => ({ ...x, lifecycle: { ...x.lifecycle, createBeforeDestroy: true } }));
    const r = runner({ resources: cbd }, [
      { at: 60_000, fault: { kind: 'drift', address: 'aws_instance.app', set: { ami: 'ami-by-hand' } } },
      { at: 60_000, fault: { kind: 'failCreate', address: 'aws_instance.app', times: 1, tainted: true } },
    ]);
    r.run(12 * 60_000);
    expect(Object.keys(r.world.state.resources)).toContain('aws_instance.app (deposed 1)');
    expect(Object.values(r.world.state.resources).filter((s) => s.type === 'aws_instance')).toHaveLength(2);
    r.run(25 * 60_000);
    expect(Object.keys(r.world.state.resources).sort()).toEqual(['aws_instance.app', 'aws_security_group.app']);
    expect(Object.values(r.world.cloud).filter((o) => o.type === 'aws_instance')).toHaveLength(1);
    expect(converged(viewOf(r))).toBe(true);
  });

  it('a plain replacement (-/+) deletes first: create-before-destroy-honoured fails when held to a create_before_destroy configuration', () => {
    const drift = [{ at: 60_000, fault: { kind: 'drift' as const, address: 'aws_instance.app', set: { ami: 'ami-by-hand' } } }];
    const cbd = resources.map((x) => ({ ...x, lifecycle: { ...x.lifecycle, createBeforeDestroy: true } }));
    const asIfCbd = {
      ...createBeforeDestroyHonoured,
      holds: (v: Parameters<typeof createBeforeDestroyHonoured.holds>[0]) => createBeforeDestroyHonoured.holds(asIfRunRead(v, cbd)),
    };
    expect(driveChecking(runner({}, drift), 30 * 60_000, [asIfCbd])).toMatchObject({ property: 'create-before-destroy-honoured' });
    expect(driveChecking(runner({ resources: cbd }, drift), 30 * 60_000, [createBeforeDestroyHonoured])).toBeNull();
  });

  it('an edit made during a run counts from the next run: terraform read its .tf files when the run started', () => {
    const bigger = resources.map((x) =>
      x.address === 'aws_instance.app' ? { ...x, attrs: { ...x.attrs, instance_type: 't3.large' } } : x,
    );
    const r = runner({}, [{ at: 2_000, config: { resources: bigger } }]); // run 1 is creating the security group, the instance is next
    r.run(60_000);
    const id = r.world.state.resources['aws_instance.app']!.id;
    expect(r.world.cloud[id]!.attrs.instance_type).toBe('t3.micro');
    r.run(15 * 60_000);
    expect(r.world.cloud[id]!.attrs.instance_type).toBe('t3.large');
    expect(r.world.calls.filter((c) => c.kind === 'update').map((c) => c.address)).toEqual(['aws_instance.app']);
  });

  it('goes observe → compare → act and back', () => {
    const r = runner();
    const phases: string[] = [];
    for (let i = 0; i < 5; i++) {
      phases.push(r.phase);
      r.step();
    }
    expect(phases).toEqual(['observe', 'compare', 'act', 'compare', 'act']);
  });
});

describe('terraform scenario format', () => {
  const base = { loop: 'terraform', resources: [{ resource: 'aws_vpc.main', cidr_block: '10.0.0.0/16' }] };
  const bad = (doc: object) => {
    try {
      parseTerraformScenario('t.yaml', 't', doc);
      return '';
    } catch (e) {
      return e instanceof InputErrors ? e.message : `not an InputErrors: ${String(e)}`;
    }
  };
  it('names file, field and expectation', () => {
    expect(bad({ ...base, resources: [{ resource: 'aws_vpc.main', cidr: 'x' }] })).toContain(
      't.yaml: resources[0].cidr: expected an argument of aws_vpc',
    );
    expect(bad({ ...base, resources: [{ resource: 'google_compute_instance.x' }] })).toContain(
      'resources[0].resource: expected a resource type this model knows',
    );
    expect(bad({ ...base, resources: [{ resource: 'aws_subnet.a', vpc_id: '${aws_vpc.nope.id}' }] })).toContain(
      'Reference to undeclared resource "aws_vpc.nope"',
    );
    expect(
      bad({
        ...base,
        resources: [
          { resource: 'aws_vpc.a', depends_on: ['aws_vpc.b'] },
          { resource: 'aws_vpc.b', depends_on: ['aws_vpc.a'] },
        ],
      }),
    ).toContain('cycle');
    expect(bad({ ...base, run: { mode: 'destroy' } })).toContain('run.mode: expected apply, plan or refresh-only');
  });
  it('parses a valid document', () => {
    const s: TerraformScenario = parseTerraformScenario('t.yaml', 't', { ...base, run: { every: '15m' } });
    expect(s.config).toMatchObject({ mode: 'apply', everyMs: 900_000 });
  });
});

const scenarios = readdirSync('scenarios')
  .filter((f) => f.startsWith('terraform-') && f.endsWith('.yaml'))
  .map((f) => `scenarios/${f}`);
describe('terraform scenarios', () => {
  it('ship at least two', () => expect(scenarios.length).toBeGreaterThanOrEqual(2));
  for (const file of scenarios) {
    it(`${file}: deterministic, observe/compare/act all shown`, () => {
      const once = () => {
        const { runner, scenario } = runnerFor(file);
        runner.run(scenario.durationMs);
        return runner;
      };
      const a = once();
      expect(JSON.stringify(a.trace())).toBe(JSON.stringify(once().trace()));
      for (const phase of ['observe', 'compare', 'act']) expect(a.frames.some((f) => f.phase === phase && f.note)).toBe(true);
    });
  }
  it('terraform-drift keeps every always-claim in every state and ends converged (its configuration only changes an AMI)', () => {
    const { runner, scenario } = terraformRunnerFor('scenarios/terraform-drift.yaml');
    const always = terraformProperties(scenario.config, []).filter((p) => p.kind === 'always');
    expect(always.map((p) => p.name)).toEqual([
      'state-writes-locked-and-ordered',
      'apply-respects-dependencies',
      'failure-stops-dependents',
      'prevent-destroy-honoured',
      'create-before-destroy-honoured',
    ]);
    expect(driveChecking(runner, scenario.durationMs, always)).toBeNull();
    expect(converged(viewOf(runner))).toBe(true);
  });
  it('terraform-replace-data-loss: the -/+ replacement loses the 120 GB; prevent_destroy stops the next one', () => {
    const { runner, scenario } = runnerFor('scenarios/terraform-replace-data-loss.yaml');
    runner.run(80 * 60_000);
    const w = runner.world as TerraformWorld;
    expect(w.dataLostGb).toBe(120);
    expect(w.calls.filter((c) => c.kind === 'delete' && c.address === 'aws_db_instance.main')).toHaveLength(1);
    runner.run(scenario.durationMs);
    // The resource block removed: prevent_destroy went with it, and the database is destroyed after all.
    expect((runner.world as TerraformWorld).calls.filter((c) => c.kind === 'delete' && c.address === 'aws_db_instance.main')).toHaveLength(
      2,
    );
  });
});
