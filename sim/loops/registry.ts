import type { LoopBinding } from '../model';
import type { TimelineEntry } from '../runner';
import { Runner } from '../runner';
import { InputError } from '../scenario/errors';
import { parseYamlText } from '../scenario/load-text';
import type { Frame } from '../trace';
import { hpaBinding, parseHpaScenario } from './incus-hpa';
import { hpaColumns } from './incus-hpa-format';
import { parseSystemdScenario, systemdBinding } from './systemd-restart';
import { systemdColumns } from './systemd-restart-format';
import { cronBinding, parseCronScenario } from './cron';
import { cronColumns } from './cron-format';
import { kubernetesBinding, parseKubernetesScenario } from './kubernetes';
import { kubernetesColumns } from './kubernetes-notes';
import { parsePuppetScenario, puppetBinding } from './puppet';
import { puppetColumns } from './puppet-format';
import { parseTerraformScenario, terraformBinding } from './terraform';
import { terraformColumns } from './terraform-format';

/** Browser-safe: no node: imports here (the web lab uses this file; the CLI uses ./index). */

/** What every loop's scenario parser returns. */
export interface LoadedScenario<W = unknown, F = unknown, C = unknown> {
  file: string;
  name: string;
  description: string;
  seed: number;
  durationMs: number;
  config: C;
  world: W;
  timeline: TimelineEntry<F, C>[];
}

export interface LoopEntry {
  binding: LoopBinding<unknown, unknown, unknown>;
  parse(file: string, name: string, doc: unknown, seed?: number): LoadedScenario;
  /** The timeline columns between the time and the note (e.g. pods and average). */
  columns(frame: Frame): string;
  /** Applies a policy override (--policy) where the loop has policies. */
  withPolicy?(config: unknown, policy: string): unknown;
}

/** Every loop loopscope knows. Add a loop with one entry here. */
export const LOOPS: Record<string, LoopEntry> = {
  'incus-hpa': {
    binding: hpaBinding,
    parse: parseHpaScenario,
    columns: hpaColumns,
    withPolicy: (config, policy) => ({ ...(config as object), policy }),
  },
  'systemd-restart': {
    binding: systemdBinding,
    parse: parseSystemdScenario,
    columns: systemdColumns,
  },
  cron: {
    binding: cronBinding,
    parse: parseCronScenario,
    columns: cronColumns,
  },
  puppet: {
    binding: puppetBinding,
    parse: parsePuppetScenario,
    columns: puppetColumns,
  },
  terraform: {
    binding: terraformBinding,
    parse: parseTerraformScenario,
    columns: terraformColumns,
  },
  kubernetes: {
    binding: kubernetesBinding,
    parse: parseKubernetesScenario,
    columns: kubernetesColumns,
    // --policy seed|kubernetes picks the HPA controller's rule (controller: hpa).
    withPolicy: (config, policy) => ({ ...(config as { options: object }), options: { ...(config as { options: object }).options, policy } }),
  },
};

/** Parses scenario text (YAML) for whichever loop it names. */
export function parseScenario(file: string, name: string, doc: unknown, seed?: number) {
  const loop = (doc && typeof doc === 'object' && 'loop' in doc) ? (doc as { loop: unknown }).loop : undefined;
  const entry = typeof loop === 'string' ? LOOPS[loop] : undefined;
  if (!entry) throw new InputError(file, 'loop', `expected one of ${Object.keys(LOOPS).join(', ')}, got ${JSON.stringify(loop)}`);
  return { entry, scenario: entry.parse(file, name, doc, seed) };
}

export function parseScenarioText(file: string, name: string, text: string, seed?: number) {
  return parseScenario(file, name, parseYamlText(file, text), seed);
}

export interface SimOptions { seed?: number; policy?: string; checkpoints?: boolean; recordFrames?: boolean }

/** A runner for a parsed scenario (not yet run). */
export function createRunner(entry: LoopEntry, scenario: LoadedScenario, options: SimOptions = {}) {
  let config = scenario.config;
  if (options.policy) {
    if (!entry.withPolicy) throw new InputError(scenario.file, 'loop', `loop ${entry.binding.loop} has no policies (--policy)`);
    config = entry.withPolicy(config, options.policy);
  }
  const policy = options.policy ?? (config as { policy?: string }).policy;
  return new Runner(entry.binding, {
    scenario: scenario.name, seed: scenario.seed, ...(policy ? { policy } : {}), world: scenario.world, config,
    timeline: scenario.timeline, checkpoints: options.checkpoints ?? false, recordFrames: options.recordFrames ?? true,
  });
}
