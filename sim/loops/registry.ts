import { Runner } from '../runner';
import { InputError } from '../scenario/errors';
import { parseYamlText } from '../scenario/load-text';
import { takeRepeats } from '../scenario/repeat';
import { didYouMean } from '../scenario/suggest';
import { POLICY_NAMES } from '../../machines/incus-hpa';
import { cronCheck } from '../properties/cron';
import { hpaCheck } from '../properties/incus-hpa';
import { hpaLiveness } from '../properties/incus-hpa-liveness';
import { kubernetesCheck, kubernetesCheckFor } from '../properties/kubernetes';
import { puppetCheck } from '../properties/puppet';
import { systemdRestartCheck } from '../properties/systemd-restart';
import { terraformCheck } from '../properties/terraform';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { AnyLoop, LoopDefinition, LoopId } from './define';
import type { ControllerConfig } from '../../machines/kubernetes';
import type { KubeFault, KubeWorld } from '../worlds/kubernetes';
import type { HpaConfig, incusHpaMachine } from '../../machines/incus-hpa';
import type { controllerMachine } from '../../machines/kubernetes';
import type { HpaController } from './incus-hpa-controller-schema';
import type { KubernetesController } from './kubernetes-controller';
import type { HpaWorldSummary } from './incus-hpa-world-schema';
import type { KubeSummary } from './kubernetes-world-schema';
import type { HpaFault, HpaWorld } from '../worlds/incus-hpa';
import { defineLoop, isLoopId } from './define';
import { hpaBinding, hpaBindingFor, parseHpaScenario } from './incus-hpa';
import { hpaColumns } from './incus-hpa-format';
import { parseSystemdScenario, systemdBinding } from './systemd-restart';
import { systemdColumns } from './systemd-restart-format';
import { cronBinding, parseCronScenario } from './cron';
import { cronColumns } from './cron-format';
import { kubernetesBinding, kubernetesBindingFor, parseKubernetesScenario } from './kubernetes';
import type { ScenarioHost, UserCodeLoaders } from '../user-controller/hook';
import { kubernetesColumns } from './kubernetes-notes';
import { parsePuppetScenario, puppetBinding } from './puppet';
import { puppetColumns } from './puppet-format';
import { parseTerraformScenario, terraformBinding } from './terraform';
import { terraformColumns } from './terraform-format';

/** Browser-safe: no node: imports here (the web lab uses this file; the CLI uses ./index). */

export type { AnyLoop, LoopId } from './define';
export type { LoadedScenario } from '../scenario/loaded-scenario';
export { LOOP_IDS } from './define';

/** A registered loop, as the CLI, the runner, the explorer and the lab see it. */
export type LoopEntry = AnyLoop;

type HpaLoop = LoopDefinition<HpaWorld, HpaFault, HpaConfig, HpaWorldSummary, HpaController, typeof incusHpaMachine>;
type KubernetesLoop = LoopDefinition<KubeWorld, KubeFault, ControllerConfig, KubeSummary, KubernetesController, typeof controllerMachine>;

const hpaLoop: HpaLoop = defineLoop({
  id: 'incus-hpa',
  binding: hpaBinding,
  parse: parseHpaScenario,
  columns: hpaColumns,
  check: { ...hpaCheck, liveness: hpaLiveness },
  policies: {
    names: POLICY_NAMES,
    apply: (config, name) => ({ ...config, policy: POLICY_NAMES.find((p) => p === name) ?? config.policy }),
  },
  provide: ({ policies }): HpaLoop => (policies.size ? { ...hpaLoop, binding: hpaBindingFor(policies) } : hpaLoop),
  pathScenario: 'incus-hpa-check-small.yaml',
});

const kubernetesLoop: KubernetesLoop = defineLoop({
  id: 'kubernetes',
  binding: kubernetesBinding,
  parse: parseKubernetesScenario,
  columns: kubernetesColumns,
  check: kubernetesCheck,
  // The HPA controller's rule on the plane (controller: hpa): upstream's algorithm or the talk's seed rule.
  policies: { names: ['kubernetes', 'seed'], apply: (config, name) => ({ ...config, options: { ...config.options, policy: name } }) },
  provide: ({ controller }): KubernetesLoop => {
    if (!controller) return kubernetesLoop;
    const binding = kubernetesBindingFor(controller);
    return { ...kubernetesLoop, binding, check: kubernetesCheckFor({ controller, binding }) };
  },
  pathScenario: 'kubernetes-check-replicaset.yaml',
});

/** Every loop's definition with its types: what a loop's runner is typed from (sim/loop-runner.ts, RunnerOf). */
const TYPED_LOOPS = {
  'incus-hpa': hpaLoop,
  'systemd-restart': defineLoop({
    id: 'systemd-restart',
    binding: systemdBinding,
    parse: parseSystemdScenario,
    columns: systemdColumns,
    check: systemdRestartCheck,
    pathScenario: 'systemd-restart-check-restart-sec.yaml',
  }),
  cron: defineLoop({
    id: 'cron',
    binding: cronBinding,
    parse: parseCronScenario,
    columns: cronColumns,
    check: cronCheck,
    pathScenario: 'cron-check-cronjob-forbid.yaml',
  }),
  puppet: defineLoop({
    id: 'puppet',
    binding: puppetBinding,
    parse: parsePuppetScenario,
    columns: puppetColumns,
    check: puppetCheck,
    pathScenario: 'puppet-check-drift.yaml',
  }),
  terraform: defineLoop({
    id: 'terraform',
    binding: terraformBinding,
    parse: parseTerraformScenario,
    columns: terraformColumns,
    check: terraformCheck,
    pathScenario: 'terraform-check-crashed-lock.yaml',
  }),
  kubernetes: kubernetesLoop,
} satisfies Record<LoopId, AnyLoop>;

/** Each loop's definition type, by id (sim/loop-runner.ts reads its world, fault and config types). */
export type TypedLoops = typeof TYPED_LOOPS;

/**
 * Every loop loopscope knows: one definition each (sim/loops/define.ts), its types erased here —
 * the one place they are, at the registry's boundary: the CLI, the runner, the explorer and the lab
 * hold loops of every kind side by side. Sound because a loop's functions only ever meet values its
 * own pieces made (its parser's scenario and config, its world model's state, its runner's frames,
 * or a trace's frames read through its world schema); TypeScript accepts it without a cast because
 * method parameters are bivariant. Readers get a loop's frames and runner back typed by narrowing on
 * the loop id (sim/loop-frames.ts, sim/loop-runner.ts).
 */
export const LOOPS: Readonly<Record<LoopId, AnyLoop>> = TYPED_LOOPS;

/** The loop registered under an id, if any. */
export const loopById = (id: unknown): AnyLoop | undefined => (isLoopId(id) ? LOOPS[id] : undefined);

/** Parses scenario text (YAML) for whichever loop it names. The loop comes back provided with the
 * user's code the scenario names, loaded with `loaders` (Node's; the lab has none). */
export function parseScenario(file: string, name: string, doc: unknown, seed?: number, loaders?: UserCodeLoaders) {
  const loop = doc && typeof doc === 'object' && 'loop' in doc ? doc.loop : undefined;
  const entry = loopById(loop);
  if (!entry)
    throw new InputError(
      file,
      'loop',
      `expected one of ${Object.keys(LOOPS).join(', ')}, got ${JSON.stringify(loop)}${didYouMean(loop, Object.keys(LOOPS))}`,
    );
  // `repeat: true` (any loop's timeline entry) is read here; the loop's parser sees the entry without it.
  const { doc: entries, repeating } = takeRepeats(file, doc);
  const host: ScenarioHost = { loaders, loaded: { policies: new Map() } };
  const scenario = entry.parse(file, name, entries, seed, host);
  const provided = entry.provide ? entry.provide(host.loaded) : entry;
  return { entry: provided, scenario: repeating.length ? { ...scenario, repeating } : scenario };
}

export function parseScenarioText(file: string, name: string, text: string, seed?: number, loaders?: UserCodeLoaders) {
  return parseScenario(file, name, parseYamlText(file, text), seed, loaders);
}

export interface SimOptions {
  seed?: number;
  policy?: string;
  checkpoints?: boolean;
  recordFrames?: boolean;
}

/** A runner for a parsed scenario (not yet run). */
export function createRunner(entry: LoopEntry, scenario: LoadedScenario, options: SimOptions = {}) {
  let config = scenario.config;
  if (options.policy) config = withPolicy(entry, scenario, options.policy);
  const policy = options.policy ?? (config as { policy?: string }).policy; // cast: every loop's config names its policy, if any, in policy
  return new Runner(entry.binding, {
    scenario: scenario.name,
    seed: scenario.seed,
    ...(policy ? { policy } : {}),
    world: scenario.world,
    config,
    timeline: scenario.timeline,
    checkpoints: options.checkpoints ?? false,
    recordFrames: options.recordFrames ?? true,
  });
}

/** The scenario's config with a named policy applied; bad input when the loop has no such policy. */
export function withPolicy(entry: AnyLoop, scenario: LoadedScenario, policy: string): unknown {
  const names = entry.policies?.names ?? [];
  if (!entry.policies || names.length === 0) throw new InputError('--policy', '', `expected no --policy: loop ${entry.id} has no policies`);
  if (!names.includes(policy))
    throw new InputError(
      '--policy',
      '',
      `expected one of ${names.join(', ')} (the policies of ${entry.id}), got "${policy}"${didYouMean(policy, names)}`,
    );
  return entry.policies.apply(scenario.config, policy);
}
