import { z } from 'zod';
import type { EventObject } from 'xstate';
import type { PuppetConfig, PuppetContext, Ref, Resource, ResourceType, Step, Values } from '../../machines/puppet';
import { DEFAULT_SETTINGS, RESOURCE_TYPES, evaluationOrder, puppetMachine, refOf, unknownReferences } from '../../machines/puppet';
import type { LoopBinding } from '../model';
import type { PuppetWorldSummary } from './puppet-world-schema';
import type { PuppetController } from './puppet-controller-schema';
import type { TimelineEntry } from '../runner';
import { InputError, InputErrors, issuesToErrors } from '../scenario/errors';
import { durationField } from '../scenario/hpa-config';
import { headerOf, headerShape } from '../scenario/header';
import type { PuppetNote } from '../notes/puppet';
import { puppetNote } from '../notes/puppet';
import { formatDuration } from '../units';
import type { Host, PuppetFault, PuppetWorld, RepoPackage, Timings } from '../worlds/puppet';
import { createPuppetWorld, puppetWorldModel } from '../worlds/puppet';
import { puppetController } from './puppet-controller';

/**
 * The loop's config: the catalog and puppet.conf, plus (as for systemd) an operator request
 * that travels as a config change: `run` is SIGUSR1 to the agent daemon.
 */
export interface PuppetLoopConfig extends PuppetConfig {
  request?: 'run';
}

export const puppetBinding: LoopBinding<
  PuppetWorld,
  PuppetFault,
  PuppetLoopConfig,
  PuppetController,
  typeof puppetMachine,
  PuppetWorldSummary
> = {
  loop: 'puppet',
  machine: puppetMachine,
  world: puppetWorldModel,
  machineInput: (config) => ({ config: { settings: config.settings, catalog: config.catalog } }),
  configEvent: (config) =>
    config.request === 'run'
      ? { type: 'PUPPET.RUN' }
      : {
          type: 'CONFIG.UPDATE',
          config: { ...(config.settings ? { settings: config.settings } : {}), ...(config.catalog ? { catalog: config.catalog } : {}) },
        },
  note: (ctx, event) => noteFor(ctx, event),
  controller: (ctx) => puppetController(ctx),
};

const span = (ms: number) => formatDuration(ms).replace(/^00:/, '');

function stepNote(ctx: PuppetContext, step: Step): PuppetNote | undefined {
  if (step.kind === 'done') return undefined;
  const s = ctx.tx?.statuses[step.ref];
  switch (step.kind) {
    case 'skip':
      return agentLog(`Warning: ${step.ref}: Skipping because of failed dependencies (${step.failedDependencies.join(', ')})`);
    case 'noop':
      return agentLog(`Notice: ${step.ref}: ${s?.message ?? ''}${s?.corrective ? ' [corrective]' : ''}`);
    case 'wouldRefresh':
      return agentLog(`Notice: ${step.ref}: Would have triggered 'refresh' from ${step.events} event${step.events > 1 ? 's' : ''}`);
    default:
      return undefined;
  }
}

/** A line of the agent's own log, quoted as it is. */
const agentLog = (line: string) => puppetNote('puppet.agentLog', { line });

/** Lines in the words of the agent's log where it has them. */
function noteFor(ctx: PuppetContext, event: EventObject): PuppetNote | undefined {
  const st = ctx.config.settings;
  const resources = ctx.config.catalog.length;
  const type = event.type;
  if (type === 'xstate.init')
    return puppetNote('puppet.agentStarted', {
      settings: `runinterval=${span(st.runintervalMs)} splay=${st.splay}${st.splay ? ` splaylimit=${span(st.splaylimitMs ?? st.runintervalMs)}` : ''} noop=${st.noop}`,
      resources,
    });
  if (type === 'xstate.done.actor.drawSplay') return agentLog(`Sleeping for ${(ctx.splayMs ?? 0) / 1000} seconds (splay is enabled)`);
  if (type === 'xstate.done.actor.readClock')
    return ctx.tx === null && ctx.lastError
      ? agentLog(`Error: Failed to apply catalog: ${ctx.lastError}`)
      : puppetNote('puppet.retrieving', { run: ctx.runs, resources });
  if (type === 'xstate.done.actor.retrieve' && ctx.tx)
    return puppetNote('puppet.applying', { run: ctx.tx.run, version: ctx.tx.catalogVersion, noop: ctx.tx.noop, order: ctx.tx.order });
  if (type === 'xstate.error.actor.retrieve') return agentLog(`Error: ${ctx.lastError}`);
  if (type === 'xstate.done.actor.syncResource' || type === 'xstate.error.actor.syncResource') {
    const ref = ctx.applied && 'ref' in ctx.applied ? ctx.applied.ref : undefined;
    const s = ref ? ctx.tx?.statuses[ref] : undefined;
    if (!s) return undefined;
    return agentLog(
      s.failed ? `Error: ${ref}: Could not evaluate: ${s.message}` : `Notice: ${ref}: ${s.message}${s.corrective ? ' [corrective]' : ''}`,
    );
  }
  if (type === 'xstate.done.actor.refreshResource' || type === 'xstate.error.actor.refreshResource') {
    const ref = ctx.applied && 'ref' in ctx.applied ? ctx.applied.ref : '';
    const s = ctx.tx?.statuses[ref];
    return agentLog(s?.failedToRestart ? `Error: ${ref}: ${s.message}` : `Notice: ${ref}: ${s?.message.split('; ').at(-1) ?? ''}`);
  }
  if (type.startsWith('xstate.after.compareTime')) {
    if (ctx.applied) return stepNote(ctx, ctx.applied);
    const step = ctx.step;
    if (step?.kind === 'sync') return puppetNote('puppet.willSet', { ref: step.ref, values: step.values });
    if (step?.kind === 'refresh') return puppetNote('puppet.willRestart', { ref: step.ref, events: step.events });
    return undefined;
  }
  if (type === 'xstate.done.actor.sendReport' && ctx.lastReport) {
    const r = ctx.lastReport;
    const m = r.resources;
    return puppetNote('puppet.report', {
      run: r.run,
      status: r.status,
      exitCode: r.exitCode,
      noop: r.noopPending,
      outOfSync: m.outOfSync,
      changes: r.changes,
      corrective: m.corrective,
      failed: m.failed,
      skipped: m.skipped,
      restarted: m.restarted,
    });
  }
  if (type === 'xstate.done.actor.clockAtEnd') return puppetNote('puppet.nextRun', { span: span(ctx.nextDelayMs) });
  if (type === 'PUPPET.RUN') return puppetNote('puppet.runNow', {});
  if (type === 'CONFIG.UPDATE')
    return puppetNote('puppet.newCatalog', {
      version: ctx.catalogVersion,
      resources,
      settings: `noop=${st.noop}, runinterval=${span(st.runintervalMs)}`,
    });
  return undefined;
}

// ---- scenario format ----

const ENSURE: Record<ResourceType, RegExp> = {
  package: /^(present|installed|absent|purged|latest|\d[\w.:~+-]*)$/,
  file: /^(file|present|absent)$/,
  service: /^(running|stopped)$/,
  user: /^(present|absent)$/,
};
const ENSURE_WORDS: Record<ResourceType, string> = {
  package: 'present, installed, absent, purged, latest or a version',
  file: 'file, present or absent',
  service: 'running or stopped',
  user: 'present or absent',
};
const REF = /^(Package|File|Service|User)\[[^\]]+\]$/;
const refList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .pipe(z.array(z.string().regex(REF, { error: 'expected a reference like Package[nginx] or File[/etc/motd]' })));

const resourceSchema = z
  .strictObject({
    package: z.string().min(1).optional(),
    file: z.string().regex(/^\//, { error: 'expected an absolute path' }).optional(),
    service: z.string().min(1).optional(),
    user: z.string().min(1).optional(),
    ensure: z.string().optional(),
    content: z.string().optional(),
    enable: z.boolean({ error: 'expected true or false' }).optional(),
    shell: z.string().optional(),
    require: refList.optional(),
    before: refList.optional(),
    notify: refList.optional(),
    subscribe: refList.optional(),
    noop: z.boolean({ error: 'expected true or false' }).optional(),
  })
  .refine((r) => RESOURCE_TYPES.filter((t) => r[t] !== undefined).length === 1, {
    error: 'expected exactly one of package, file, service or user (the type and its title)',
  });

const settingsSchema = z.strictObject({
  runinterval: durationField.optional(),
  splay: z.boolean({ error: 'expected true or false' }).optional(),
  splaylimit: durationField.optional(),
  noop: z.boolean({ error: 'expected true or false' }).optional(),
});

const hostSchema = z.strictObject({
  packages: z.record(z.string(), z.string()).optional(),
  files: z.record(z.string().regex(/^\//), z.string()).optional(),
  services: z.record(z.string(), z.strictObject({ running: z.boolean(), enabled: z.boolean() })).optional(),
  users: z.record(z.string(), z.strictObject({ shell: z.string() })).optional(),
});

const repoSchema = z.record(
  z.string(),
  z.strictObject({
    versions: z
      .array(z.string(), { error: 'expected a list of versions, oldest first' })
      .min(1, { error: 'expected at least one version' }),
    service: z.string().optional(),
  }),
);

const timingsSchema = z.strictObject({
  retrieve: durationField.optional(),
  install: durationField.optional(),
  installJitter: durationField.optional(),
  remove: durationField.optional(),
  file: durationField.optional(),
  service: durationField.optional(),
  restart: durationField.optional(),
  user: durationField.optional(),
  report: durationField.optional(),
});

const driftSchema = z.strictObject({
  resource: z.string().regex(REF, { error: 'expected a reference like Package[nginx]' }),
  ensure: z.string().optional(),
  content: z.string().optional(),
  enable: z.boolean().optional(),
  shell: z.string().optional(),
});

const timelineEntrySchema = z
  .strictObject({
    at: durationField,
    drift: driftSchema.optional(),
    failInstall: z.strictObject({ package: z.string(), times: z.union([z.number().int().min(0), z.literal('always')]) }).optional(),
    publish: z.strictObject({ package: z.string(), version: z.string() }).optional(),
    catalog: z.array(resourceSchema).optional(),
    agent: settingsSchema.optional(),
    run: z.literal(true, { error: 'expected true' }).optional(),
  })
  .refine((e) => Object.keys(e).length === 2, {
    error: 'expected "at" and exactly one change (drift, failInstall, publish, catalog, agent or run)',
  });

const puppetScenarioSchema = z.strictObject({
  ...headerShape('puppet'),
  agent: settingsSchema.optional(),
  host: hostSchema.optional(),
  repo: repoSchema.optional(),
  timings: timingsSchema.optional(),
  catalog: z.array(resourceSchema, { error: 'expected a list of resources' }).min(1, { error: 'expected at least one resource' }),
  timeline: z.array(timelineEntrySchema, { error: 'expected a list of timeline entries' }).optional(),
});

type ResourceFile = z.output<typeof resourceSchema>;

/** Builds and checks a catalog as the compiler would: unique resources, known references, no cycle. */
function toCatalog(file: string, field: string, list: ResourceFile[]): Resource[] {
  const errors: InputError[] = [];
  const seen = new Set<Ref>();
  const catalog = list.map((r, i): Resource => {
    const type = RESOURCE_TYPES.find((t) => r[t] !== undefined)!;
    const title = r[type]!;
    const ref = refOf(type, title);
    if (seen.has(ref))
      errors.push(
        new InputError(file, `${field}[${i}]`, `expected each resource once (Duplicate declaration: ${ref} is already declared)`),
      );
    seen.add(ref);
    const should: Values = {};
    const ensure = r.ensure ?? (type === 'service' ? undefined : 'present');
    if (ensure !== undefined) {
      if (!ENSURE[type].test(ensure))
        errors.push(new InputError(file, `${field}[${i}].ensure`, `expected ${ENSURE_WORDS[type]} for a ${type}, got "${ensure}"`));
      should.ensure = ensure;
    }
    const only = (key: 'content' | 'enable' | 'shell', types: ResourceType[]) => {
      if (r[key] === undefined) return;
      if (!types.includes(type)) errors.push(new InputError(file, `${field}[${i}].${key}`, `expected no ${key} on a ${type}`));
      else should[key] = String(r[key]);
    };
    only('content', ['file']);
    only('enable', ['service']);
    only('shell', ['user']);
    return {
      type,
      title,
      should,
      require: r.require ?? [],
      before: r.before ?? [],
      notify: r.notify ?? [],
      subscribe: r.subscribe ?? [],
      noop: r.noop ?? false,
    };
  });
  for (const u of unknownReferences(catalog))
    errors.push(
      new InputError(
        file,
        field,
        `expected references to declared resources: ${u.from} refers to ${u.to} (Could not find resource '${u.to}' for relationship)`,
      ),
    );
  if (errors.length) throw new InputErrors(errors);
  const order = evaluationOrder(catalog);
  if (!order.ok) throw new InputError(file, field, `expected no dependency cycle (Found 1 dependency cycle: ${order.cycle.join(' => ')})`);
  return catalog;
}

type SettingsFile = z.output<typeof settingsSchema>;
function toSettings(s: SettingsFile, base = DEFAULT_SETTINGS) {
  return {
    runintervalMs: s.runinterval ?? base.runintervalMs,
    splay: s.splay ?? base.splay,
    splaylimitMs: s.splaylimit ?? base.splaylimitMs,
    noop: s.noop ?? base.noop,
  };
}

export interface PuppetScenario {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  config: PuppetLoopConfig;
  world: PuppetWorld;
  timeline: TimelineEntry<PuppetFault, PuppetLoopConfig>[];
}

export function parsePuppetScenario(file: string, name: string, doc: unknown, seedOverride?: number): PuppetScenario {
  const parsed = puppetScenarioSchema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const s = parsed.data;
  const header = headerOf(file, name, s, seedOverride, 3 * 3_600_000);
  const { seed } = header;
  const catalog = toCatalog(file, 'catalog', s.catalog);
  let settings = toSettings(s.agent ?? {});
  if (settings.runintervalMs <= 0) throw new InputError(file, 'agent.runinterval', 'expected a duration > 0');
  const timeline = (s.timeline ?? []).map((e, i): TimelineEntry<PuppetFault, PuppetLoopConfig> => {
    if (e.drift) {
      const { resource, ...rest } = e.drift;
      const values = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
      if (!Object.keys(values).length)
        throw new InputError(file, `timeline[${i}].drift`, 'expected at least one property to change (ensure, content, enable or shell)');
      return { at: e.at, fault: { kind: 'drift', ref: resource, values } };
    }
    if (e.failInstall)
      return {
        at: e.at,
        fault: { kind: 'failInstall', package: e.failInstall.package, times: e.failInstall.times === 'always' ? -1 : e.failInstall.times },
      };
    if (e.publish) return { at: e.at, fault: { kind: 'publish', ...e.publish } };
    if (e.catalog) return { at: e.at, config: { catalog: toCatalog(file, `timeline[${i}].catalog`, e.catalog) } };
    if (e.agent) {
      settings = toSettings(e.agent, settings);
      return { at: e.at, config: { settings } };
    }
    return { at: e.at, config: { request: 'run' } };
  });
  const h = s.host ?? {};
  const host: Host = { packages: h.packages ?? {}, files: h.files ?? {}, services: h.services ?? {}, users: h.users ?? {} };
  const repo: Record<string, RepoPackage> = Object.fromEntries(
    Object.entries(s.repo ?? {}).map(([k, v]) => [k, { versions: v.versions, ...(v.service ? { service: v.service } : {}) }]),
  );
  const t = s.timings ?? {};
  const timings: Partial<Timings> = Object.fromEntries(
    Object.entries({
      retrieveMs: t.retrieve,
      installMs: t.install,
      installJitterMs: t.installJitter,
      removeMs: t.remove,
      fileMs: t.file,
      serviceMs: t.service,
      restartMs: t.restart,
      userMs: t.user,
      reportMs: t.report,
    }).filter(([, v]) => v !== undefined),
  );
  return {
    ...header,
    config: { settings: toSettings(s.agent ?? {}), catalog },
    world: createPuppetWorld(seed, host, repo, timings),
    timeline,
  };
}
