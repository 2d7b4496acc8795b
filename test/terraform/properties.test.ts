import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceConfig, Scalar } from '../../machines/terraform';
import type { TerraformLoopConfig } from '../../sim/loops/terraform';
import { terraformBinding } from '../../sim/loops/terraform';
import { applyRespectsDependencies, terraformViolations } from '../../sim/properties/terraform';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { TerraformFault } from '../../sim/worlds/terraform';
import { createTerraformWorld } from '../../sim/worlds/terraform';
import { propertyRuns } from '../property-runs';

/** Templates: each may only refer to earlier ones, so any subset in this order is acyclic. */
const TEMPLATES: { address: string; attrs: Record<string, Scalar>; dependsOn?: string[] }[] = [
  { address: 'aws_vpc.main', attrs: { cidr_block: '10.0.0.0/16', tags_name: 'main' } },
  { address: 'aws_subnet.a', attrs: { vpc_id: '${aws_vpc.main.id}', cidr_block: '10.0.1.0/24' } },
  { address: 'aws_security_group.web', attrs: { name: 'web', vpc_id: '${aws_vpc.main.id}', ingress_port: 443 } },
  { address: 'aws_instance.web', attrs: { ami: 'ami-1', instance_type: 't3.micro', subnet_id: '${aws_subnet.a.id}', vpc_security_group_ids: '${aws_security_group.web.id}' } },
  { address: 'aws_db_instance.main', attrs: { identifier: 'orders', engine: 'mysql', instance_class: 'db.t3.small', subnet_id: '${aws_subnet.a.id}' } },
  { address: 'aws_s3_bucket.logs', attrs: { bucket: 'logs', tags_name: 'logs' }, dependsOn: ['aws_instance.web'] },
];

const configArb = fc.record({
  keep: fc.array(fc.boolean(), { minLength: TEMPLATES.length, maxLength: TEMPLATES.length }),
  cbd: fc.array(fc.boolean(), { minLength: TEMPLATES.length, maxLength: TEMPLATES.length }),
  protect: fc.array(fc.nat(5).map((n) => n === 0), { minLength: TEMPLATES.length, maxLength: TEMPLATES.length }),
}).map(({ keep, cbd, protect }) => {
  // Keep a resource only with everything it refers to.
  const chosen: ResourceConfig[] = [];
  TEMPLATES.forEach((t, i) => {
    const refs = [...Object.values(t.attrs).flatMap((v) => (typeof v === 'string' && v.startsWith('${') ? [v.slice(2, v.lastIndexOf('.'))] : [])), ...(t.dependsOn ?? [])];
    if (!keep[i] || !refs.every((r) => chosen.some((c) => c.address === r))) return;
    const [type, name] = t.address.split('.') as [string, string];
    chosen.push({ address: t.address, type, name, attrs: t.attrs, dependsOn: t.dependsOn ?? [], lifecycle: { createBeforeDestroy: cbd[i]!, preventDestroy: protect[i]!, ignoreChanges: [] } });
  });
  return chosen;
}).filter((c) => c.length > 0);

const faultArb = (config: ResourceConfig[]) => fc.array(fc.record({
  at: fc.integer({ min: 0, max: 100 }),
  i: fc.nat(10),
  kind: fc.constantFrom('drift', 'deleteOutside', 'failCreate', 'failTainted'),
  attr: fc.nat(5),
}).map(({ at, i, kind, attr }): TimelineEntry<TerraformFault, TerraformLoopConfig> => {
  const r = config[i % config.length]!;
  if (kind === 'deleteOutside') return { at: at * 60_000, fault: { kind, address: r.address } };
  if (kind === 'failCreate' || kind === 'failTainted') return { at: at * 60_000, fault: { kind: 'failCreate', address: r.address, times: 1, tainted: kind === 'failTainted' } };
  const names = Object.keys(r.attrs).filter((n) => !String(r.attrs[n]).startsWith('${'));
  const name = names[attr % names.length]!;
  return { at: at * 60_000, fault: { kind: 'drift', address: r.address, set: { [name]: `${String(r.attrs[name])}-changed` } } };
}), { maxLength: 4 });

describe('terraform invariants hold for random configurations, drift and failing creates (fast-check)', () => {
  it('dependency order, failures stop dependents, prevent_destroy, locked ordered writes, convergence, drift reverted', () => {
    fc.assert(fc.property(configArb.chain((c) => fc.tuple(fc.constant(c), faultArb(c), fc.nat(1000))), ([resources, timeline, seed]) => {
      const r = new Runner(terraformBinding, {
        scenario: 'p', seed, world: createTerraformWorld(seed), timeline, recordFrames: false,
        config: { resources, mode: 'apply', everyMs: 10 * 60_000, who: 'p' },
      });
      r.run(3 * 3_600_000);
      expect(r.world.locks.filter((l) => l.ok).length).toBeGreaterThanOrEqual(5);
      expect(terraformViolations(r.world, resources)).toEqual([]);
    }), { numRuns: propertyRuns(200), seed: 9 });
  });

  it('the properties can fail: a create logged before its dependency finished is reported', () => {
    const world = createTerraformWorld(1);
    world.calls.push(
      { t0: 0, t1: 10, lockId: 'L', address: 'aws_instance.web', kind: 'create', ok: true, objectId: 'i-1' },
      { t0: 5, t1: 20, lockId: 'L', address: 'aws_subnet.a', kind: 'create', ok: true, objectId: 's-1' },
    );
    const config = [{ address: 'aws_instance.web', type: 'aws_instance', name: 'web', attrs: { subnet_id: '${aws_subnet.a.id}' }, dependsOn: [], lifecycle: { createBeforeDestroy: false, preventDestroy: false, ignoreChanges: [] } }];
    expect(applyRespectsDependencies(world, config)).toHaveLength(1);
  });
});
