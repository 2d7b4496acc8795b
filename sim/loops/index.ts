import type { LoopBinding } from '../model';
import type { TimelineEntry } from '../runner';
import { Runner } from '../runner';
import { InputError } from '../scenario/errors';
import { readYamlFile, scenarioNameOf } from '../scenario/load';
import type { Frame } from '../trace';
import { hpaBinding, parseHpaScenario } from './incus-hpa';
import { hpaColumns } from './incus-hpa-format';

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

interface LoopEntry {
  binding: LoopBinding<unknown, unknown, unknown>;
  parse(file: string, name: string, doc: unknown, seed?: number): LoadedScenario;
  /** The timeline columns between the time and the note (e.g. pods and average). */
  columns(frame: Frame): string;
  /** Applies a policy override (--policy) where the loop has policies. */
  withPolicy?(config: unknown, policy: string): unknown;
}

export const LOOPS: Record<string, LoopEntry> = {
  'incus-hpa': {
    binding: hpaBinding as unknown as LoopBinding<unknown, unknown, unknown>,
    parse: parseHpaScenario as LoopEntry['parse'],
    columns: hpaColumns,
    withPolicy: (config, policy) => ({ ...(config as object), policy }),
  },
};

export function loadScenario(file: string, seed?: number) {
  const doc = readYamlFile(file);
  const loop = (doc && typeof doc === 'object' && 'loop' in doc) ? (doc as { loop: unknown }).loop : undefined;
  const entry = typeof loop === 'string' ? LOOPS[loop] : undefined;
  if (!entry) throw new InputError(file, 'loop', `expected one of ${Object.keys(LOOPS).join(', ')}, got ${JSON.stringify(loop)}`);
  return { entry, scenario: entry.parse(file, scenarioNameOf(file), doc, seed) };
}

export interface SimOptions { seed?: number; policy?: string; checkpoints?: boolean; recordFrames?: boolean }

/** Builds a runner for a scenario file (not yet run). */
export function runnerFor(file: string, options: SimOptions = {}) {
  const { entry, scenario } = loadScenario(file, options.seed);
  let config = scenario.config;
  if (options.policy) {
    if (!entry.withPolicy) throw new InputError(file, 'loop', `loop ${entry.binding.loop} has no policies (--policy)`);
    config = entry.withPolicy(config, options.policy);
  }
  const policy = options.policy ?? (config as { policy?: string }).policy;
  const runner = new Runner(entry.binding, {
    scenario: scenario.name, seed: scenario.seed, ...(policy ? { policy } : {}), world: scenario.world, config,
    timeline: scenario.timeline, checkpoints: options.checkpoints ?? false, recordFrames: options.recordFrames ?? true,
  });
  return { entry, scenario, runner };
}
