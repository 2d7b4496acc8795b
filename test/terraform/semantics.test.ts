import { describe, expect, it } from 'vitest';
import type { ResourceConfig, StateResource } from '../../machines/terraform';
import {
  UNKNOWN,
  actionSymbol,
  applyOps,
  blockedOps,
  hasChanges,
  nextOp,
  plan,
  planSummary,
  recordOutcome,
  refreshState,
  resolvedAttrs,
  topoOrder,
} from '../../machines/terraform';

const rc = (address: string, attrs: ResourceConfig['attrs'], more: Partial<ResourceConfig> = {}): ResourceConfig => {
  const [type, name] = address.split('.') as [string, string];
  return {
    address,
    type,
    name,
    attrs,
    dependsOn: [],
    lifecycle: { createBeforeDestroy: false, preventDestroy: false, ignoreChanges: [] },
    ...more,
  };
};
const sr = (address: string, id: string, attrs: StateResource['attrs'], more: Partial<StateResource> = {}): StateResource => ({
  address,
  type: address.split('.')[0]!,
  id,
  attrs,
  dependencies: [],
  tainted: false,
  ...more,
});
const lc = (l: Partial<ResourceConfig['lifecycle']>) => ({
  lifecycle: { createBeforeDestroy: false, preventDestroy: false, ignoreChanges: [], ...l },
});

// plans.Action and the plan renderer (internal/plans/action.go; internal/command/format):
//   + create · ~ update in-place · -/+ destroy and then create replacement ·
//   +/- create replacement and then destroy (create_before_destroy) · - destroy.
describe('plan actions table', () => {
  const web = sr('aws_instance.web', 'i-1', { ami: 'ami-1', instance_type: 't3.micro' });
  it.each([
    ['not in state → create', [rc('aws_instance.web', { ami: 'ami-1', instance_type: 't3.micro' })], {}, 'create', '+'],
    ['same → no-op', [rc('aws_instance.web', { ami: 'ami-1', instance_type: 't3.micro' })], { 'aws_instance.web': web }, 'no-op', ' '],
    [
      'instance_type (updatable) → update in place',
      [rc('aws_instance.web', { ami: 'ami-1', instance_type: 't3.large' })],
      { 'aws_instance.web': web },
      'update',
      '~',
    ],
    [
      'ami (ForceNew) → replace, destroy first',
      [rc('aws_instance.web', { ami: 'ami-2', instance_type: 't3.micro' })],
      { 'aws_instance.web': web },
      'replace',
      '-/+',
    ],
    [
      'ami with create_before_destroy → replace, create first',
      [rc('aws_instance.web', { ami: 'ami-2', instance_type: 't3.micro' }, lc({ createBeforeDestroy: true }))],
      { 'aws_instance.web': web },
      'replace',
      '+/-',
    ],
    [
      'tainted → replace',
      [rc('aws_instance.web', { ami: 'ami-1', instance_type: 't3.micro' })],
      { 'aws_instance.web': { ...web, tainted: true } },
      'replace',
      '-/+',
    ],
    [
      'ignore_changes hides the difference',
      [rc('aws_instance.web', { ami: 'ami-1', instance_type: 't3.large' }, lc({ ignoreChanges: ['instance_type'] }))],
      { 'aws_instance.web': web },
      'no-op',
      ' ',
    ],
  ] as const)('%s', (_name, config, state, action, symbol) => {
    const c = plan([...config], { ...state }).changes[0]!;
    expect(c.action).toBe(action);
    expect(actionSymbol(c)).toBe(symbol);
  });

  it('a resource removed from the configuration is destroyed (-), "because it is not in configuration"', () => {
    const p = plan([], { 'aws_s3_bucket.old': sr('aws_s3_bucket.old', 'old', { bucket: 'old' }) });
    expect(p.changes).toMatchObject([{ address: 'aws_s3_bucket.old', action: 'delete', reason: 'not-in-configuration' }]);
    expect(planSummary(p)).toEqual({ add: 0, change: 0, destroy: 1 });
  });

  it('"Plan: 1 to add, 1 to change, 1 to destroy." counts a replacement as one add and one destroy', () => {
    const state = {
      'aws_instance.web': sr('aws_instance.web', 'i-1', { ami: 'ami-1', instance_type: 't3.micro' }),
      'aws_vpc.v': sr('aws_vpc.v', 'vpc-1', { cidr_block: '10.0.0.0/16', tags_name: 'a' }),
    };
    const p = plan(
      [rc('aws_instance.web', { ami: 'ami-2', instance_type: 't3.micro' }), rc('aws_vpc.v', { cidr_block: '10.0.0.0/16', tags_name: 'b' })],
      state,
    );
    expect(planSummary(p)).toEqual({ add: 1, change: 1, destroy: 1 });
    expect(hasChanges(plan([], {}))).toBe(false);
  });
});

// lifecycle meta-argument docs: prevent_destroy rejects a plan that destroys the object — and
// "this setting does not prevent the remote object from being destroyed if the resource block were removed".
describe('prevent_destroy', () => {
  const db = sr('aws_db_instance.main', 'orders', { identifier: 'orders', engine: 'mysql' });
  it('a replacement is an error: "Instance cannot be destroyed"', () => {
    const p = plan([rc('aws_db_instance.main', { identifier: 'orders', engine: 'postgres' }, lc({ preventDestroy: true }))], {
      'aws_db_instance.main': db,
    });
    expect(p.errors[0]).toContain('Instance cannot be destroyed');
  });
  it('an in-place update is fine', () => {
    expect(
      plan(
        [
          rc(
            'aws_db_instance.main',
            { identifier: 'orders', engine: 'mysql', instance_class: 'db.t3.large' },
            lc({ preventDestroy: true }),
          ),
        ],
        { 'aws_db_instance.main': db },
      ).errors,
    ).toEqual([]);
  });
  it('removing the block removes the protection', () => {
    expect(plan([], { 'aws_db_instance.main': db })).toMatchObject({ errors: [], changes: [{ action: 'delete' }] });
  });
});

describe('references and "(known after apply)"', () => {
  const vpc = rc('aws_vpc.main', { cidr_block: '10.0.0.0/16' });
  const subnet = rc('aws_subnet.a', { vpc_id: '${aws_vpc.main.id}', cidr_block: '10.0.1.0/24' });
  it('dependencies come first in the walk', () => expect(topoOrder([subnet, vpc])).toEqual(['aws_vpc.main', 'aws_subnet.a']));
  it("replacing the VPC makes the subnet's vpc_id unknown, which forces the subnet to be replaced too", () => {
    const state = {
      'aws_vpc.main': sr('aws_vpc.main', 'vpc-1', { cidr_block: '10.0.0.0/16' }),
      'aws_subnet.a': sr('aws_subnet.a', 'subnet-1', { vpc_id: 'vpc-1', cidr_block: '10.0.1.0/24' }, { dependencies: ['aws_vpc.main'] }),
    };
    const p = plan([rc('aws_vpc.main', { cidr_block: '10.1.0.0/16' }), subnet], state);
    expect(p.changes.map((c) => c.action)).toEqual(['replace', 'replace']);
    expect(p.changes[1]!.attrs.find((a) => a.name === 'vpc_id')).toMatchObject({ after: UNKNOWN, forcesReplacement: true });
  });
  it('create_before_destroy propagates to what the marked resource depends on', () => {
    const state = {
      'aws_vpc.main': sr('aws_vpc.main', 'vpc-1', { cidr_block: '10.0.0.0/16' }),
      'aws_subnet.a': sr('aws_subnet.a', 'subnet-1', { vpc_id: 'vpc-1', cidr_block: '10.0.1.0/24' }),
    };
    const p = plan([rc('aws_vpc.main', { cidr_block: '10.1.0.0/16' }), { ...subnet, ...lc({ createBeforeDestroy: true }) }], state);
    expect(p.changes.map((c) => c.order)).toEqual(['create-before-destroy', 'create-before-destroy']);
  });
  it('at apply time references resolve to the ids just created; ignore_changes keeps the current value', () => {
    const st = { 'aws_vpc.main': sr('aws_vpc.main', 'vpc-9', { cidr_block: '10.0.0.0/16' }) };
    expect(resolvedAttrs(subnet, st)).toEqual({ vpc_id: 'vpc-9', cidr_block: '10.0.1.0/24' });
    const tagged = rc('aws_vpc.main', { cidr_block: '10.0.0.0/16', tags_name: 'x' }, lc({ ignoreChanges: ['tags_name'] }));
    expect(
      resolvedAttrs(tagged, { 'aws_vpc.main': sr('aws_vpc.main', 'vpc-9', { cidr_block: '10.0.0.0/16', tags_name: 'by-hand' }) }),
    ).toMatchObject({ tags_name: 'by-hand' });
  });
});

describe('refresh: "Objects have changed outside of Terraform"', () => {
  it('changed attributes and deleted objects; deleted ones leave the refreshed state', () => {
    const prior = {
      'aws_instance.a': sr('aws_instance.a', 'i-1', { instance_type: 't3.micro' }),
      'aws_instance.b': sr('aws_instance.b', 'i-2', { instance_type: 't3.micro' }),
    };
    const { refreshed, drift } = refreshState(prior, { 'aws_instance.a': { instance_type: 't3.large' }, 'aws_instance.b': null });
    expect(drift).toEqual([
      { address: 'aws_instance.a', kind: 'changed', attrs: [{ name: 'instance_type', before: 't3.micro', after: 't3.large' }] },
      { address: 'aws_instance.b', kind: 'deleted', attrs: [] },
    ]);
    expect(Object.keys(refreshed)).toEqual(['aws_instance.a']);
  });
});

// graph_builder_apply.go / transform_destroy_edge.go: creates after dependencies, destroys before them.
describe('apply graph and partial failure', () => {
  const vpc = rc('aws_vpc.main', { cidr_block: '10.0.0.0/16' });
  const subnet = rc('aws_subnet.a', { vpc_id: '${aws_vpc.main.id}', cidr_block: '10.0.1.0/24' });
  const inst = rc('aws_instance.web', { ami: 'ami-1', subnet_id: '${aws_subnet.a.id}' });
  const bucket = rc('aws_s3_bucket.logs', { bucket: 'logs' });
  const walk = (resources: ResourceConfig[], state: Record<string, StateResource>, fail: string[] = []) => {
    const p = plan(resources, state);
    let progress = { ops: applyOps(p, resources, state), done: [] as string[], failed: [] as string[], state, errors: [] as string[] };
    const order: string[] = [];
    for (let op = nextOp(progress); op; op = nextOp(progress)) {
      order.push(op.key);
      const failed = fail.includes(op.key);
      progress = recordOutcome(
        progress,
        op,
        failed ? { object: null, error: 'boom' } : { object: { id: `${op.address}-id`, attrs: {} }, error: null },
        resources.find((r) => r.address === op.address),
      );
    }
    return { order, progress };
  };
  it('creates in dependency order', () => {
    expect(walk([inst, subnet, vpc], {}).order).toEqual(['aws_vpc.main:create', 'aws_subnet.a:create', 'aws_instance.web:create']);
  });
  it('destroys dependents first', () => {
    const state = {
      'aws_vpc.main': sr('aws_vpc.main', 'vpc-1', {}),
      'aws_subnet.a': sr('aws_subnet.a', 's-1', {}, { dependencies: ['aws_vpc.main'] }),
      'aws_instance.web': sr('aws_instance.web', 'i-1', {}, { dependencies: ['aws_subnet.a'] }),
    };
    expect(walk([], state).order).toEqual(['aws_instance.web:delete', 'aws_subnet.a:delete', 'aws_vpc.main:delete']);
  });
  it('a failed create stops its dependents, not the independent resources; the state keeps what succeeded', () => {
    const { order, progress } = walk([vpc, subnet, inst, bucket], {}, ['aws_subnet.a:create']);
    expect(order).toEqual(['aws_vpc.main:create', 'aws_subnet.a:create', 'aws_s3_bucket.logs:create']);
    expect(blockedOps(progress)).toEqual(['aws_instance.web:create']);
    expect(Object.keys(progress.state).sort()).toEqual(['aws_s3_bucket.logs', 'aws_vpc.main']);
  });
  it('-/+ destroys then creates; +/- creates, then destroys the deposed object', () => {
    const state = { 'aws_instance.web': sr('aws_instance.web', 'i-1', { ami: 'ami-0' }) };
    const plain = rc('aws_instance.web', { ami: 'ami-1' });
    expect(walk([plain], state).order).toEqual(['aws_instance.web:delete', 'aws_instance.web:create']);
    const cbd = { ...plain, ...lc({ createBeforeDestroy: true }) };
    const { order, progress } = walk([cbd], state);
    expect(order).toEqual(['aws_instance.web:create', 'aws_instance.web:delete']);
    expect(progress.state['aws_instance.web']!.id).toBe('aws_instance.web-id'); // the new object stays
  });
  it('a create that returns an object and an error leaves it tainted', () => {
    const progress = { ops: [], done: [], failed: [], state: {}, errors: [] };
    const op = { key: 'aws_instance.web:create', address: 'aws_instance.web', kind: 'create' as const, after: [] };
    const next = recordOutcome(progress, op, { object: { id: 'i-7', attrs: {} }, error: 'timeout' }, inst);
    expect(next.state['aws_instance.web']).toMatchObject({ id: 'i-7', tainted: true });
    expect(next.failed).toEqual([op.key]);
  });
});
