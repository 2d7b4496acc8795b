import type { LoadedScenario, LoopEntry } from '../loops/registry';
import type { LoopBinding } from '../model';
import { InputError } from '../scenario/errors';
import type { Trace } from '../trace';
import { counterexampleTrace } from './counterexample';
import type { ExploreOptions, ExploreResult } from './explorer';
import { explore } from './explorer';
import type { EnvMove, LoopCheck } from './model';
import { CHECKS } from './registry';

export interface CheckOptions extends ExploreOptions {
  policy?: string;
  /** Overrides the loop's convergence bound K (in periods). */
  withinPeriods?: number;
}

export interface CheckRun {
  scenario: LoadedScenario;
  config: unknown;
  policy?: string;
  alphabet: EnvMove<unknown, unknown>[];
  promises: readonly string[];
  result: ExploreResult<unknown, unknown>;
  /** One trace per violated property: its shortest counterexample. */
  counterexamples: { property: string; trace: Trace }[];
}

/**
 * `loopscope check`: the scenario's timeline becomes the environment's alphabet — each entry may
 * happen at any instant, in any order, at most once, or never — and every reachable state of the
 * loop is explored under it.
 */
export function checkScenario(entry: LoopEntry, scenario: LoadedScenario, options: CheckOptions = {}): CheckRun {
  const check: LoopCheck<unknown, unknown, unknown> | undefined = CHECKS[entry.binding.loop];
  if (!check) throw new InputError(scenario.file, 'loop', `expected a loop the checker knows (${Object.keys(CHECKS).join(', ')}), got ${entry.binding.loop}`);
  let config = scenario.config;
  if (options.policy) {
    if (!entry.withPolicy) throw new InputError(scenario.file, 'loop', `loop ${entry.binding.loop} has no policies (--policy)`);
    config = entry.withPolicy(config, options.policy);
  }
  check.validate(scenario);
  const policy = options.policy ?? (config as { policy?: string }).policy;
  const alphabet = scenario.timeline.map((e, index) => ({ index, label: check.label(e), entry: e }));
  const properties = check.properties(config, alphabet, options.withinPeriods);
  const binding: LoopBinding<unknown, unknown, unknown> = entry.binding;
  const result = explore(binding, check, { config, world: scenario.world }, alphabet, properties, options);
  const replayInput = {
    binding, scenario: scenario.name, seed: scenario.seed, ...(policy ? { policy } : {}), config, world: scenario.world,
    alphabet: scenario.timeline,
  };
  const counterexamples = result.verdicts
    .filter((v) => v.status === 'violated' && v.path && v.property.kind !== 'sometimes')
    .map((v) => ({ property: v.property.name, trace: counterexampleTrace(replayInput, v.property, v.path!, v.settleMs) }));
  return { scenario, config, ...(policy ? { policy } : {}), alphabet, promises: check.promises(config), result, counterexamples };
}

export const anyViolated = (run: CheckRun) => run.result.verdicts.some((v) => v.status === 'violated');
