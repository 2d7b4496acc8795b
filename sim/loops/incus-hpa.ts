import { z } from 'zod';
import { headerOf, headerShape } from '../scenario/header';
import type { EventObject } from 'xstate';
import type { HpaConfig, HpaContext, PolicyModules } from '../../machines/incus-hpa';
import { DEFAULT_CONFIG, incusHpaMachine, providePolicyModules } from '../../machines/incus-hpa';
import type { LoopBinding } from '../model';
import type { HpaWorldSummary } from './incus-hpa-world-schema';
import type { HpaController } from './incus-hpa-controller-schema';
import type { TimelineEntry } from '../runner';
import { InputError, InputErrors, issuesToErrors } from '../scenario/errors';
import { bytesField, configProblems, durationField, hpaConfigFileSchema, toHpaConfig } from '../scenario/hpa-config';
import type { HpaFault, HpaWorld, HpaWorldParams, SimInstance } from '../worlds/incus-hpa';
import { createHpaWorld, hpaWorldModel } from '../worlds/incus-hpa';
import { hpaSimController } from './incus-hpa-controller';
import type { PolicyModuleHost } from '../user-controller/policy-hook';
import { probePolicyModule } from '../user-controller/policy-hook';
import type { ScenarioHost } from '../user-controller/hook';

export const hpaBinding: LoopBinding<HpaWorld, HpaFault, HpaConfig, HpaController, typeof incusHpaMachine, HpaWorldSummary> = {
  loop: 'incus-hpa',
  machine: incusHpaMachine,
  world: hpaWorldModel,
  machineInput: (config) => ({ config }),
  configEvent: (config) => ({ type: 'CONFIG.UPDATE', config }),
  isControllerRestart: (fault) => fault.kind === 'restartController',
  note: (ctx, event) => noteFor(ctx, event),
  controller: (ctx, world, t) => hpaSimController(ctx, world, t),
};

/** The binding whose machine decides with the policy modules its scenario loaded (and whose frame
 * summaries peek at them). */
export const hpaBindingFor = (
  modules: PolicyModules,
): LoopBinding<HpaWorld, HpaFault, HpaConfig, HpaController, typeof incusHpaMachine, HpaWorldSummary> => ({
  ...hpaBinding,
  machine: providePolicyModules(incusHpaMachine, modules),
  controller: (ctx, world, t) => hpaSimController(ctx, world, t, modules),
});

function noteFor(ctx: HpaContext, event: EventObject): string | undefined {
  if (event.type === 'xstate.done.actor.observe' && ctx.policyFailed)
    return `error: ${ctx.lastError ?? 'unknown'} (retry #${ctx.consecutiveErrors})`;
  if (event.type === 'xstate.done.actor.observe' && ctx.decision) {
    return `${ctx.decision.comparison} → ${ctx.decision.verdict}`;
  }
  if (event.type === 'xstate.done.actor.createPod') {
    const out = (event as { output?: { name?: string } }).output; // cast: createPod's done event carries CreateOutput
    return `created ${out?.name ?? 'a pod'}`;
  }
  if (event.type === 'xstate.done.actor.deletePod') return 'deleted';
  if (event.type.startsWith('xstate.error.actor.')) return `error: ${ctx.lastError ?? 'unknown'} (retry #${ctx.consecutiveErrors})`;
  if (event.type === 'CONFIG.UPDATE') {
    const c = ctx.config;
    return `config: min ${c.minPods}, max ${c.maxPods}, threshold ${c.memoryThreshold}%, policy ${c.policy}`;
  }
  return undefined;
}

const latencySchema = z.strictObject({
  list: durationField.optional(),
  create: durationField.optional(),
  start: durationField.optional(),
  stop: durationField.optional(),
  delete: durationField.optional(),
});

const instanceSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,62}$/, { error: 'expected an instance name (lowercase letters, digits, dashes)' }),
  owned: z.boolean({ error: 'expected true or false' }).optional(),
  limitsMemory: bytesField.optional(),
  stress: bytesField.optional(),
  serves: z.boolean({ error: 'expected true or false' }).optional(),
  status: z.enum(['Running', 'Stopped'], { error: 'expected Running or Stopped' }).optional(),
});

const worldSchema = z.strictObject({
  hostMemory: bytesField.optional(),
  baseline: bytesField.optional(),
  latency: latencySchema.optional(),
  failureProbability: z
    .number({ error: 'expected a probability from 0 to 1' })
    .min(0, { error: 'expected a probability from 0 to 1' })
    .max(1, { error: 'expected a probability from 0 to 1' })
    .optional(),
  demand: bytesField.optional(),
  instances: z.array(instanceSchema, { error: 'expected a list of instances' }).optional(),
});

const positiveInt = z
  .number({ error: 'expected a whole number ≥ 1' })
  .int({ error: 'expected a whole number ≥ 1' })
  .min(1, { error: 'expected a whole number ≥ 1' });

const timelineEntrySchema = z
  .strictObject({
    at: durationField,
    demand: bytesField.optional(),
    stress: z.strictObject({ instance: z.string(), memory: bytesField }).optional(),
    kill: z.string({ error: 'expected an instance name' }).optional(),
    failApi: positiveInt.optional(),
    slowApi: z.strictObject({ factor: z.number().min(1, { error: 'expected a factor ≥ 1' }), for: durationField }).optional(),
    addInstance: instanceSchema.optional(),
    deleteInstance: z.string({ error: 'expected an instance name' }).optional(),
    restartController: z.literal(true, { error: 'expected true' }).optional(),
    config: hpaConfigFileSchema.optional(),
  })
  .refine((e) => Object.keys(e).length === 2, {
    error:
      'expected "at" and exactly one change (demand, stress, kill, failApi, slowApi, addInstance, deleteInstance, restartController or config)',
  });

const hpaScenarioSchema = z.strictObject({
  ...headerShape('incus-hpa'),
  config: hpaConfigFileSchema.optional(),
  world: worldSchema.optional(),
  timeline: z.array(timelineEntrySchema, { error: 'expected a list of timeline entries' }).optional(),
});

export interface HpaScenario {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  config: HpaConfig;
  world: HpaWorld;
  timeline: TimelineEntry<HpaFault, HpaConfig>[];
}

export const DEFAULT_PARAMS: HpaWorldParams = {
  hostMemoryBytes: 16 * 1024 ** 3,
  baselineBytes: 32 * 1024 ** 2,
  latency: { list: 100, create: 4000, start: 2000, stop: 1000, delete: 500 },
  failureProbability: 0,
};

/** Validates a parsed scenario document; throws InputErrors naming file and field. */
export function parseHpaScenario(file: string, name: string, doc: unknown, seedOverride?: number, host?: ScenarioHost): HpaScenario {
  const parsed = hpaScenarioSchema.safeParse(doc);
  if (!parsed.success) throw new InputErrors(issuesToErrors(file, '', parsed.error));
  const s = parsed.data;
  const header = headerOf(file, name, s, seedOverride, 30 * 60_000);
  const { seed } = header;
  // Policy modules load into the parse's own map, which parseScenario provides the machine with.
  const policies: PolicyModuleHost = { load: host?.loaders?.policy, loaded: host?.loaded.policies ?? new Map() };
  const config = toHpaConfig(s.config ?? {}, DEFAULT_CONFIG, { file, prefix: 'config.', policies });
  const problems = configProblems(config).map((p) => new InputError(file, `config.${p.field}`, p.expected));
  if (problems.length) throw new InputErrors(problems);
  probePolicyModule(file, 'config.policy.module', config, policies.loaded);

  const w = s.world ?? {};
  const params: HpaWorldParams = {
    hostMemoryBytes: w.hostMemory ?? DEFAULT_PARAMS.hostMemoryBytes,
    baselineBytes: w.baseline ?? DEFAULT_PARAMS.baselineBytes,
    latency: { ...DEFAULT_PARAMS.latency, ...stripUndefined(w.latency ?? {}) },
    failureProbability: w.failureProbability ?? 0,
  };
  const toInstance = (i: z.output<typeof instanceSchema>, t: number): SimInstance => ({
    name: i.name,
    owner: i.owned === false ? null : config.name,
    status: i.status ?? 'Running',
    limitBytes: i.limitsMemory ?? config.limitsMemoryBytes,
    stressBytes: i.stress ?? 0,
    serves: i.serves ?? true,
    createdAt: t,
  });
  const instances = (w.instances ?? []).map((i) => toInstance(i, 0));
  const names = new Set<string>();
  instances.forEach((i, idx) => {
    if (names.has(i.name)) throw new InputError(file, `world.instances[${idx}].name`, `expected a unique name ("${i.name}" appears twice)`);
    names.add(i.name);
  });

  const deleted = new Set<string>();
  const timeline: TimelineEntry<HpaFault, HpaConfig>[] = (s.timeline ?? []).map((e, idx) => {
    const at = e.at;
    if (e.config) {
      // Only the keys the entry sets (toHpaConfig onto nothing), checked as applied to the start config.
      const change = toHpaConfig(e.config, {} as HpaConfig, { file, prefix: `timeline[${idx}].config.`, policies }); // cast: an empty base, so the result holds only the fields the change sets, used as a partial change
      const next = { ...config, ...change };
      const bad = configProblems(next).map((p) => new InputError(file, `timeline[${idx}].config.${p.field}`, p.expected));
      if (bad.length) throw new InputErrors(bad);
      probePolicyModule(file, `timeline[${idx}].config.policy.module`, next, policies.loaded);
      return { at, config: change };
    }
    const fault = timelineFault(e, config);
    const target = 'instance' in fault ? fault.instance : undefined;
    if (target !== undefined && !names.has(target) && !target.startsWith(config.namePrefix)) {
      throw new InputError(file, `timeline[${idx}]`, `expected an instance of the world, got "${target}"`);
    }
    if (fault.kind === 'addInstance') {
      if (names.has(fault.name) && !deleted.has(fault.name))
        throw new InputError(
          file,
          `timeline[${idx}].addInstance.name`,
          `expected a name not already in the world (or deleted by an earlier entry), got "${fault.name}"`,
        );
      names.add(fault.name);
      deleted.delete(fault.name);
    }
    if (fault.kind === 'deleteInstance') deleted.add(fault.instance);
    return { at, fault };
  });
  return {
    ...header,
    config,
    world: createHpaWorld(seed, params, instances, w.demand ?? 0),
    timeline,
  };
}

function timelineFault(e: z.output<typeof timelineEntrySchema>, config: HpaConfig): HpaFault {
  if (e.demand !== undefined) return { kind: 'demand', bytes: e.demand };
  if (e.stress) return { kind: 'stress', instance: e.stress.instance, bytes: e.stress.memory };
  if (e.kill !== undefined) return { kind: 'kill', instance: e.kill };
  if (e.failApi !== undefined) return { kind: 'failApi', calls: e.failApi };
  if (e.slowApi) return { kind: 'slowApi', factor: e.slowApi.factor, forMs: e.slowApi.for };
  if (e.deleteInstance !== undefined) return { kind: 'deleteInstance', instance: e.deleteInstance };
  if (e.restartController) return { kind: 'restartController' };
  const i = e.addInstance!;
  return {
    kind: 'addInstance',
    name: i.name,
    owner: i.owned === false ? null : config.name,
    limitBytes: i.limitsMemory ?? config.limitsMemoryBytes,
    stressBytes: i.stress ?? 0,
    serves: i.serves ?? true,
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>; // cast: the entries are o's own, minus undefined ones
}
