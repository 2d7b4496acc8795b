import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceConfig, Scalar } from '../../machines/terraform';
import { viewOf } from '../../sim/check/counterexample';
import type { TerraformLoopConfig } from '../../sim/loops/terraform';
import { terraformBinding } from '../../sim/loops/terraform';
import {
  applyRespectsDependencies,
  failureStopsDependents,
  preventDestroyHonoured,
  staleLock,
  terraformLabel,
  terraformPromises,
  terraformProperties,
} from '../../sim/properties/terraform';
import { Runner } from '../../sim/runner';
import type { TimelineEntry } from '../../sim/runner';
import type { RunCall, TerraformFault } from '../../sim/worlds/terraform';
import { createTerraformWorld } from '../../sim/worlds/terraform';
import { propertyRuns } from '../property-runs';
import { asIfRunRead, driveChecking } from './drive';

/** Templates: each may only refer to earlier ones, so any subset in this order is acyclic. */
const TEMPLATES: { address: string; attrs: Record<string, Scalar>; dependsOn?: string[] }[] = [
  { address: 'aws_vpc.main', attrs: { cidr_block: '10.0.0.0/16', tags_name: 'main' } },
  { address: 'aws_subnet.a', attrs: { vpc_id: '${aws_vpc.main.id}', cidr_block: '10.0.1.0/24' } },
  { address: 'aws_security_group.web', attrs: { name: 'web', vpc_id: '${aws_vpc.main.id}', ingress_port: 443 } },
  {
    address: 'aws_instance.web',
    attrs: {
      ami: 'ami-1',
      instance_type: 't3.micro',
      subnet_id: '${aws_subnet.a.id}',
      vpc_security_group_ids: '${aws_security_group.web.id}',
    },
  },
  {
    address: 'aws_db_instance.main',
    attrs: { identifier: 'orders', engine: 'mysql', instance_class: 'db.t3.small', subnet_id: '${aws_subnet.a.id}' },
  },
  { address: 'aws_s3_bucket.logs', attrs: { bucket: 'logs', tags_name: 'logs' }, dependsOn: ['aws_instance.web'] },
];

const configArb = fc
  .record({
    keep: fc.array(fc.boolean(), { minLength: TEMPLATES.length, maxLength: TEMPLATES.length }),
    cbd: fc.array(fc.boolean(), { minLength: TEMPLATES.length, maxLength: TEMPLATES.length }),
    protect: fc.array(
      fc.nat(5).map((n) => n === 0),
      { minLength: TEMPLATES.length, maxLength: TEMPLATES.length },
    ),
  })
  .map(({ keep, cbd, protect }) => {
    // Keep a resource only with everything it refers to.
    const chosen: ResourceConfig[] = [];
    TEMPLATES.forEach((t, i) => {
      const refs = [
        ...Object.values(t.attrs).flatMap((v) => (typeof v === 'string' && v.startsWith('${') ? [v.slice(2, v.lastIndexOf('.'))] : [])),
        ...(t.dependsOn ?? []),
      ];
      if (!keep[i] || !refs.every((r) => chosen.some((c) => c.address === r))) return;
      const [type, name] = t.address.split('.') as [string, string];
      chosen.push({
        address: t.address,
        type,
        name,
        attrs: t.attrs,
        dependsOn: t.dependsOn ?? [],
        lifecycle: { createBeforeDestroy: cbd[i]!, preventDestroy: protect[i]!, ignoreChanges: [] },
      });
    });
    return chosen;
  })
  .filter((c) => c.length > 0);

const faultArb = (config: ResourceConfig[]) =>
  fc.array(
    fc
      .record({
        at: fc.integer({ min: 0, max: 100 }),
        i: fc.nat(10),
        kind: fc.constantFrom('drift', 'deleteOutside', 'failCreate', 'failTainted'),
        attr: fc.nat(5),
      })
      .map(({ at, i, kind, attr }): TimelineEntry<TerraformFault, TerraformLoopConfig> => {
        const r = config[i % config.length]!;
        if (kind === 'deleteOutside') return { at: at * 60_000, fault: { kind, address: r.address } };
        if (kind === 'failCreate' || kind === 'failTainted')
          return { at: at * 60_000, fault: { kind: 'failCreate', address: r.address, times: 1, tainted: kind === 'failTainted' } };
        const names = Object.keys(r.attrs).filter((n) => !String(r.attrs[n]).startsWith('${'));
        const name = names[attr % names.length]!;
        return { at: at * 60_000, fault: { kind: 'drift', address: r.address, set: { [name]: `${String(r.attrs[name])}-changed` } } };
      }),
    { maxLength: 4 },
  );

const EVERY = 10 * 60_000;

/**
 * The explorer's claims (sim/properties/terraform.ts), evaluated along Runner runs: the same
 * property objects `loopscope check` decides, with the faults at generated instants instead of
 * every instant, on configurations too large to explore.
 */
describe('terraform claims along Runner runs: random configurations, drift, deletes outside, failing creates (fast-check)', () => {
  it(
    'every always-claim holds in every state; a promised convergence (and no orphans, without kills) settles within K and stays',
    () => {
      fc.assert(
        fc.property(
          configArb.chain((c) => fc.tuple(fc.constant(c), faultArb(c), fc.nat(1000))),
          ([resources, timeline, seed]) => {
            const config: TerraformLoopConfig = { resources, mode: 'apply', everyMs: EVERY, who: 'p' };
            const alphabet = timeline.map((entry, index) => ({ index, label: terraformLabel(entry), entry }));
            const properties = terraformProperties(config, alphabet);
            const promised = terraformPromises(config);
            const always = properties.filter((p) => p.kind === 'always' && promised.includes(p.name));
            // Nothing kills terraform here, so nothing can be orphaned: no-orphans is held to K too.
            const eventually = properties.filter((p) => p.kind === 'eventually' && (promised.includes(p.name) || p.name === 'no-orphans'));
            const withinMs = Math.max(...properties.filter((p) => p.kind === 'eventually').map((p) => p.withinMs!));
            const settledBy = Math.max(0, ...timeline.map((e) => e.at)) + withinMs;
            const runner = new Runner(terraformBinding, {
              scenario: 'p',
              seed,
              world: createTerraformWorld(seed),
              timeline,
              recordFrames: false,
              config,
            });
            const failure = driveChecking(runner, Math.max(3 * 3_600_000, settledBy + 2 * EVERY), always, eventually, settledBy);
            expect(failure).toBeNull();
            expect(runner.world.locks.filter((l) => l.ok).length).toBeGreaterThanOrEqual(5);
          },
        ),
        { numRuns: propertyRuns(200) },
      );
    },
    60_000 + propertyRuns(200) * 100,
  );

  it(
    'killed at a generated instant, force-unlocked as documented once a run fails on the lock: the always-claims hold and the next runs repair the partial state within K',
    () => {
      fc.assert(
        fc.property(
          configArb.chain((c) => fc.tuple(fc.constant(c), faultArb(c), fc.integer({ min: 0, max: 100 * 60 }), fc.nat(1000))),
          ([resources, faults, killAtS, seed]) => {
            const config: TerraformLoopConfig = { resources, mode: 'apply', everyMs: EVERY, who: 'p' };
            const timeline = [...faults, { at: killAtS * 1000, fault: { kind: 'crash' as const } }];
            const alphabet = [...timeline, { at: 0, fault: { kind: 'forceUnlock' as const } }].map((entry, index) => ({
              index,
              label: terraformLabel(entry),
              entry,
            }));
            const properties = terraformProperties(config, alphabet);
            const promised = terraformPromises(config);
            const always = properties.filter((p) => p.kind === 'always' && promised.includes(p.name));
            const converges = properties.find((p) => p.name === 'converges')!;
            const runner = new Runner(terraformBinding, {
              scenario: 'p',
              seed,
              world: createTerraformWorld(seed),
              timeline,
              recordFrames: false,
              config,
            });
            // The operator: once a run has failed on a lock no running terraform holds, force-unlock.
            let lastMove = Math.max(...timeline.map((e) => e.at));
            let unlocked = false;
            const until = () => Math.max(3 * 3_600_000, lastMove + converges.withinMs! + 2 * EVERY);
            while (runner.nextEventAt !== undefined && runner.nextEventAt <= until()) {
              runner.processNext();
              const v = viewOf(runner);
              if (!unlocked && v.snapshot.value === 'failed' && staleLock(v)) {
                runner.inject({ kind: 'forceUnlock' });
                unlocked = true;
                lastMove = Math.max(lastMove, runner.t);
              }
              const broken = always.find((p) => !p.holds(viewOf(runner)));
              if (broken) throw new Error(`${broken.name} fails at t=${runner.t}`);
              if (
                promised.includes('converges-after-force-unlock') &&
                runner.t >= lastMove + converges.withinMs! &&
                !converges.holds(viewOf(runner))
              ) {
                throw new Error(`not converged ${(runner.t - lastMove) / 1000}s after the last move (K = ${converges.withinMs! / 1000}s)`);
              }
            }
          },
        ),
        { numRuns: propertyRuns(200) },
      );
    },
    60_000 + propertyRuns(200) * 100,
  );

  it('the claims can fail: a create begun before its dependency returned, a create after its dependency failed, a protected delete', () => {
    const lifecycle = { createBeforeDestroy: false, preventDestroy: false, ignoreChanges: [] };
    const subnet: ResourceConfig = {
      address: 'aws_subnet.a',
      type: 'aws_subnet',
      name: 'a',
      attrs: { cidr_block: '10.0.1.0/24' },
      dependsOn: [],
      lifecycle,
    };
    const web: ResourceConfig = {
      address: 'aws_instance.web',
      type: 'aws_instance',
      name: 'web',
      attrs: { subnet_id: '${aws_subnet.a.id}' },
      dependsOn: [],
      lifecycle,
    };
    const config: TerraformLoopConfig = { resources: [subnet, web], mode: 'apply', everyMs: EVERY, who: 'p' };
    const v = viewOf(new Runner(terraformBinding, { scenario: 'p', seed: 1, world: createTerraformWorld(1), config }));
    const withRun = (run: RunCall[], resources = config.resources) =>
      asIfRunRead({ ...v, world: { ...v.world, monitor: { ...v.world.monitor, run } } }, resources);
    const call = (address: string, kind: 'create' | 'delete', ok: boolean | null, busy: string[] = []) => ({
      address,
      kind,
      ok,
      op: ok === null ? 7 : 0,
      busy,
    });
    expect(applyRespectsDependencies.holds(withRun([call('aws_subnet.a', 'create', true), call('aws_instance.web', 'create', true)]))).toBe(
      true,
    );
    expect(applyRespectsDependencies.holds(withRun([call('aws_instance.web', 'create', true), call('aws_subnet.a', 'create', true)]))).toBe(
      false,
    );
    expect(
      applyRespectsDependencies.holds(
        withRun([call('aws_subnet.a', 'create', null), call('aws_instance.web', 'create', null, ['aws_subnet.a'])]),
      ),
    ).toBe(false);
    expect(failureStopsDependents.holds(withRun([call('aws_subnet.a', 'create', false), call('aws_instance.web', 'create', true)]))).toBe(
      false,
    );
    expect(
      preventDestroyHonoured.holds(
        withRun([call('aws_subnet.a', 'delete', null)], [{ ...subnet, lifecycle: { ...lifecycle, preventDestroy: true } }, web]),
      ),
    ).toBe(false);
  });
});
