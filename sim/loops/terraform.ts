import { z } from 'zod';
import type { EventObject } from 'xstate';
import type { ResourceConfig, Scalar, TerraformConfig, TerraformContext } from '../../machines/terraform';
import {
  RESOURCE_TYPES,
  SCHEMAS,
  actionSymbol,
  parseReference,
  planSummary,
  terraformMachine,
  topoOrder,
  dependenciesOf,
} from '../../machines/terraform';
import type { LoopBinding } from '../model';
import type { TerraformWorldSummary } from './terraform-world-schema';
import type { TerraformController } from './terraform-controller';
import type { TimelineEntry } from '../runner';
import { InputError, InputErrors, issuesToErrors } from '../scenario/errors';
import { durationField } from '../scenario/hpa-config';
import { headerOf, headerShape } from '../scenario/header';
import type { TerraformNote } from '../notes/terraform';
import { terraformNote } from '../notes/terraform';
import { formatDuration } from '../units';
import type { TerraformFault, TerraformWorld } from '../worlds/terraform';
import { createTerraformWorld, terraformWorldModel } from '../worlds/terraform';
import { terraformController } from './terraform-controller';

/** The configuration plus an operator request (`terraform apply` by hand) travelling as a config change. */
export interface TerraformLoopConfig extends TerraformConfig {
  request?: 'run';
}

export const terraformBinding: LoopBinding<
  TerraformWorld,
  TerraformFault,
  TerraformLoopConfig,
  TerraformController,
  typeof terraformMachine,
  TerraformWorldSummary
> = {
  loop: 'terraform',
  machine: terraformMachine,
  world: terraformWorldModel,
  machineInput: ({ request: _r, ...config }) => ({ config }),
  configEvent: ({ request, ...config }) => (request === 'run' ? { type: 'TERRAFORM.RUN' } : { type: 'CONFIG.UPDATE', config }),
  note: (ctx, event) => noteFor(ctx, event),
  controller: (ctx) => terraformController(ctx),
  isControllerRestart: (fault) => fault.kind === 'crash',
};

const command = (c: TerraformConfig) =>
  c.mode === 'apply'
    ? 'terraform apply -auto-approve'
    : c.mode === 'plan'
      ? 'terraform plan -detailed-exitcode'
      : 'terraform apply -refresh-only -auto-approve';
const short = (v: unknown) => (v === undefined ? 'null' : JSON.stringify(v));

/** A line of Terraform's own output, quoted as it is. */
const output = (text: string) => terraformNote('terraform.output', { text });
const every = (c: TerraformConfig) => (c.everyMs === null ? null : formatDuration(c.everyMs));

/** Lines in Terraform's own words where it has them. */
function noteFor(ctx: TerraformContext, event: EventObject): TerraformNote | undefined {
  const type = event.type;
  const c = ctx.config;
  if (type === 'xstate.init')
    return terraformNote('terraform.started', { command: command(c), every: every(c), resources: c.resources.length, who: c.who });
  if (type === 'xstate.done.actor.acquireLock')
    return terraformNote('terraform.lockAcquired', {
      run: ctx.runs,
      lockId: ctx.lockId,
      serial: ctx.loaded?.serial ?? 0,
      resources: Object.keys(ctx.loaded?.resources ?? {}).length,
    });
  if (type === 'xstate.error.actor.acquireLock') return terraformNote('terraform.lockFailed', { run: ctx.runs, error: `${ctx.lastError}` });
  if (type === 'xstate.done.actor.refresh') {
    if (!ctx.drift.length) return terraformNote('terraform.refreshed', { objects: Object.keys(ctx.loaded?.resources ?? {}).length });
    const what = ctx.drift.map((d) =>
      d.kind === 'deleted'
        ? `${d.address} has been deleted`
        : `${d.address} has changed: ${d.attrs.map((a) => `${a.name} ${short(a.before)} → ${short(a.after)}`).join(', ')}`,
    );
    return output(`Note: Objects have changed outside of Terraform — ${what.join('; ')}`);
  }
  if (type === 'xstate.after.compareTime.terraform.planning' && ctx.plan) {
    if (ctx.plan.errors.length) return output(ctx.plan.errors.join(' '));
    if (c.mode === 'refresh-only')
      return ctx.drift.length
        ? terraformNote('terraform.refreshOnly', { objects: ctx.drift.length })
        : output('refresh-only: No changes. Your infrastructure still matches the configuration.');
    const changes = ctx.plan.changes.filter((x) => x.action !== 'no-op');
    if (!changes.length) return output('No changes. Your infrastructure matches the configuration.');
    const s = planSummary(ctx.plan);
    const lines = changes.map((x) => {
      const forced = x.attrs.filter((a) => a.forcesReplacement).map((a) => `${a.name} forces replacement`);
      const why =
        x.reason === 'tainted'
          ? 'is tainted, so must be replaced'
          : x.action === 'replace'
            ? `must be replaced (${forced.join(', ')})`
            : x.action === 'update'
              ? `updated in-place (${x.attrs
                  .filter((a) => a.after !== a.before)
                  .map((a) => `${a.name} ${short(a.before)} → ${short(a.after)}`)
                  .join(', ')})`
              : x.action === 'create'
                ? 'will be created'
                : 'will be destroyed (not in configuration)';
      return `${actionSymbol(x)} ${x.address} ${why}`;
    });
    return output(`Plan: ${s.add} to add, ${s.change} to change, ${s.destroy} to destroy. ${lines.join('; ')}`);
  }
  if (type === 'xstate.after.compareTime.terraform.scheduling' && ctx.current) {
    const op = ctx.current;
    const verb =
      op.kind === 'create'
        ? 'Creating...'
        : op.kind === 'update'
          ? `Modifying... [id=${ctx.progress?.state[op.address]?.id}]`
          : `Destroying... [id=${op.objectId}]${ctx.progress?.state[op.address] && ctx.progress.state[op.address]!.id !== op.objectId ? ' (deposed object)' : ''}`;
    return output(`${op.address}: ${verb}`);
  }
  if ((type === 'xstate.done.actor.applyChange' || type === 'xstate.error.actor.applyChange') && ctx.lastApplied && ctx.progress) {
    const p = ctx.progress;
    const cur = ctx.lastApplied;
    if (p.failed.includes(cur.key))
      return terraformNote('terraform.changeFailed', { error: `${p.errors.at(-1)}`, tainted: p.state[cur.address]?.tainted === true });
    const word = cur.kind === 'create' ? 'Creation' : cur.kind === 'update' ? 'Modifications' : 'Destruction';
    return output(`${cur.address}: ${word} complete${cur.kind === 'delete' ? '' : ` [id=${p.state[cur.address]?.id}]`}`);
  }
  if (type === 'xstate.done.actor.persistState') return terraformNote('terraform.stateWritten', { serial: ctx.written });
  if (type === 'xstate.error.actor.persistState') return ctx.lastError ? output(ctx.lastError) : undefined;
  if (type === 'xstate.done.actor.releaseLock' || type === 'xstate.error.actor.releaseLock') {
    const r = ctx.result;
    if (!r) return undefined;
    const unlock = type === 'xstate.error.actor.releaseLock' ? `${ctx.lastError}.` : 'Releasing state lock.';
    if (r.mode === 'plan')
      return terraformNote('terraform.planExit', {
        unlock,
        exitCode: r.exitCode,
        planned: r.planned ? { add: r.planned.add, change: r.planned.change, destroy: r.planned.destroy } : null,
      });
    const a = r.applied;
    if (ctx.plan?.errors.length) return terraformNote('terraform.planningFailed', { unlock });
    return r.ok
      ? output(`${unlock} Apply complete! Resources: ${a.added} added, ${a.changed} changed, ${a.destroyed} destroyed.`)
      : terraformNote('terraform.applyFailed', {
          unlock,
          added: a.added,
          changed: a.changed,
          destroyed: a.destroyed,
          notApplied: r.notApplied,
        });
  }
  if ((type === 'xstate.after.every.terraform.idle' || type === 'xstate.after.every.terraform.failed') && c.everyMs !== null)
    return terraformNote('terraform.scheduled', { run: ctx.runs });
  if (type === 'TERRAFORM.RUN') return terraformNote('terraform.byHand', { command: command(c) });
  if (type === 'CONFIG.UPDATE')
    return terraformNote('terraform.configEdited', { resources: c.resources.length, command: command(c), every: every(c) });
  return undefined;
}

// ---- scenario format ----

const ADDRESS = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
const scalar = z.union([z.string(), z.number(), z.boolean()], { error: 'expected a string, number or boolean' });
const resourceSchema = z.looseObject({
  resource: z.string().regex(ADDRESS, { error: 'expected an address like aws_instance.web' }),
  depends_on: z.array(z.string().regex(ADDRESS, { error: 'expected an address like aws_instance.web' })).optional(),
  lifecycle: z
    .strictObject({
      create_before_destroy: z.boolean().optional(),
      prevent_destroy: z.boolean().optional(),
      ignore_changes: z.array(z.string()).optional(),
    })
    .optional(),
});

const timelineEntrySchema = z
  .strictObject({
    at: durationField,
    drift: z.strictObject({ address: z.string().regex(ADDRESS), set: z.record(z.string(), scalar) }).optional(),
    deleteOutside: z.string().regex(ADDRESS, { error: 'expected an address' }).optional(),
    failCreate: z
      .strictObject({
        address: z.string().regex(ADDRESS),
        times: z.union([z.number().int().min(0), z.literal('always')]),
        tainted: z.boolean().optional(),
      })
      .optional(),
    writeData: z.strictObject({ address: z.string().regex(ADDRESS), gb: z.number().positive() }).optional(),
    crash: z.literal(true, { error: 'expected true' }).optional(),
    forceUnlock: z.literal(true, { error: 'expected true' }).optional(),
    resources: z.array(resourceSchema).optional(),
    mode: z.enum(['apply', 'plan', 'refresh-only'], { error: 'expected apply, plan or refresh-only' }).optional(),
    run: z.literal(true, { error: 'expected true' }).optional(),
  })
  .refine((e) => Object.keys(e).length === 2, {
    error: 'expected "at" and exactly one change (drift, deleteOutside, failCreate, writeData, crash, forceUnlock, resources, mode or run)',
  });

const terraformScenarioSchema = z.strictObject({
  ...headerShape('terraform'),
  run: z
    .strictObject({
      mode: z.enum(['apply', 'plan', 'refresh-only'], { error: 'expected apply, plan or refresh-only' }).optional(),
      every: durationField.optional(),
      who: z.string().optional(),
    })
    .optional(),
  resources: z.array(resourceSchema, { error: 'expected a list of resources' }).min(1, { error: 'expected at least one resource' }),
  timeline: z.array(timelineEntrySchema, { error: 'expected a list of timeline entries' }).optional(),
});

type ResourceFile = z.output<typeof resourceSchema>;

/** Validates the configuration as `terraform validate` would: known types and arguments, declared references, no cycle. */
function toResources(file: string, field: string, list: ResourceFile[]): ResourceConfig[] {
  const errors: InputError[] = [];
  const out = list.map((r, i): ResourceConfig => {
    const [type, name] = r.resource.split('.') as [string, string]; // cast: resource addresses are type.name, checked by the schema
    const schema = SCHEMAS[type];
    if (!schema)
      errors.push(
        new InputError(
          file,
          `${field}[${i}].resource`,
          `expected a resource type this model knows (${RESOURCE_TYPES.join(', ')}), got "${type}"`,
        ),
      );
    const attrs: Record<string, Scalar> = {};
    for (const [k, v] of Object.entries(r)) {
      if (k === 'resource' || k === 'depends_on' || k === 'lifecycle') continue;
      if (schema && !(k in schema.attrs)) {
        errors.push(
          new InputError(
            file,
            `${field}[${i}].${k}`,
            `expected an argument of ${type} (${Object.keys(schema.attrs).join(', ')}): An argument named "${k}" is not expected here.`,
          ),
        );
        continue;
      }
      const parsed = scalar.safeParse(v);
      if (!parsed.success) {
        errors.push(new InputError(file, `${field}[${i}].${k}`, 'expected a string, number or boolean'));
        continue;
      }
      attrs[k] = parsed.data;
    }
    const lc = r.lifecycle ?? {};
    return {
      address: r.resource,
      type,
      name,
      attrs,
      dependsOn: r.depends_on ?? [],
      lifecycle: {
        createBeforeDestroy: lc.create_before_destroy ?? false,
        preventDestroy: lc.prevent_destroy ?? false,
        ignoreChanges: lc.ignore_changes ?? [],
      },
    };
  });
  const declared = new Set<string>();
  out.forEach((r, i) => {
    if (declared.has(r.address))
      errors.push(
        new InputError(
          file,
          `${field}[${i}].resource`,
          `expected each resource once (Duplicate resource "${r.type}" configuration "${r.name}")`,
        ),
      );
    declared.add(r.address);
  });
  out.forEach((r, i) => {
    for (const d of dependenciesOf(r))
      if (!declared.has(d))
        errors.push(
          new InputError(file, `${field}[${i}]`, `expected references to declared resources: Reference to undeclared resource "${d}"`),
        );
    for (const [k, v] of Object.entries(r.attrs))
      if (typeof v === 'string' && v.includes('${') && !parseReference(v))
        errors.push(new InputError(file, `${field}[${i}].${k}`, 'expected a whole-value reference like "${aws_vpc.main.id}"'));
  });
  if (errors.length) throw new InputErrors(errors);
  if (topoOrder(out) === null) throw new InputError(file, field, 'expected no dependency cycle (Error: Cycle)');
  return out;
}

/** A `resources:` list on its own (the lab's live edit of the configuration): the scenario's rules,
 * the same errors naming file and field; throws InputError(s). */
export function parseResources(file: string, field: string, doc: unknown): ResourceConfig[] {
  const parsed = z
    .array(resourceSchema, { error: 'expected a list of resources' })
    .min(1, { error: 'expected at least one resource' })
    .safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, field, parsed.error));
  return toResources(file, field, parsed.data);
}

export interface TerraformScenario {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  config: TerraformLoopConfig;
  world: TerraformWorld;
  timeline: TimelineEntry<TerraformFault, TerraformLoopConfig>[];
}

export function parseTerraformScenario(file: string, name: string, doc: unknown, seedOverride?: number): TerraformScenario {
  const parsed = terraformScenarioSchema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const s = parsed.data;
  const header = headerOf(file, name, s, seedOverride, 2 * 3_600_000);
  const { seed } = header;
  const resources = toResources(file, 'resources', s.resources);
  if (s.run?.every === 0) throw new InputError(file, 'run.every', 'expected a duration > 0, or no "every" to run once');
  const timeline = (s.timeline ?? []).map((e, i): TimelineEntry<TerraformFault, TerraformLoopConfig> => {
    if (e.drift) return { at: e.at, fault: { kind: 'drift', address: e.drift.address, set: e.drift.set } };
    if (e.deleteOutside) return { at: e.at, fault: { kind: 'deleteOutside', address: e.deleteOutside } };
    if (e.failCreate)
      return {
        at: e.at,
        fault: {
          kind: 'failCreate',
          address: e.failCreate.address,
          times: e.failCreate.times === 'always' ? -1 : e.failCreate.times,
          tainted: e.failCreate.tainted ?? false,
        },
      };
    if (e.writeData) return { at: e.at, fault: { kind: 'writeData', ...e.writeData } };
    if (e.crash) return { at: e.at, fault: { kind: 'crash' } };
    if (e.forceUnlock) return { at: e.at, fault: { kind: 'forceUnlock' } };
    if (e.resources) return { at: e.at, config: { resources: toResources(file, `timeline[${i}].resources`, e.resources) } };
    if (e.mode) return { at: e.at, config: { mode: e.mode } };
    return { at: e.at, config: { request: 'run' } };
  });
  return {
    ...header,
    config: { resources, mode: s.run?.mode ?? 'apply', everyMs: s.run?.every ?? null, who: s.run?.who ?? 'ci@runner-1' },
    world: createTerraformWorld(seed),
    timeline,
  };
}
