import type { LoadedScenario, LoopEntry } from '../loops/registry';
import type { LoopBinding } from '../model';
import { InputError } from '../scenario/errors';
import type { Trace } from '../trace';
import type { ReplayInput } from './counterexample';
import { counterexampleTrace } from './counterexample';
import type { ExploreOptions, ExploreResult, PathStep } from './explorer';
import { explore } from './explorer';
import type { CheckProperty, EnvMove, LoopCheck } from './model';
import { CHECKS } from './registry';

export interface CheckOptions extends ExploreOptions {
  /** A named variant of the scenario's config (the loop's `variants`, e.g. an HPA policy). */
  policy?: string;
  /** Overrides the loop's convergence bound K (in periods). */
  withinPeriods?: number;
}

export interface CheckRun {
  scenario: LoadedScenario;
  loop: string;
  config: unknown;
  /** The policy checked: the variant asked for (--policy) or the config's own. */
  policy?: string;
  /** The variant asked for (--policy); absent when the scenario's own config was checked. */
  variant?: string;
  alphabet: EnvMove<unknown, unknown>[];
  promises: readonly string[];
  result: ExploreResult<unknown, unknown>;
  /** One per violated always/eventually property: its shortest path and its trace. */
  counterexamples: { property: string; path: PathStep[]; trace: Trace }[];
}

type AnyCheck = LoopCheck<unknown, unknown, unknown>;

/** Everything a check (or a replay of one of its counterexamples) starts from. */
export interface PreparedCheck {
  check: AnyCheck;
  config: unknown;
  policy?: string;
  alphabet: EnvMove<unknown, unknown>[];
  properties: CheckProperty<unknown, unknown>[];
  replayInput: ReplayInput<unknown, unknown, unknown>;
}

/** The loop's check module, or bad input when the checker does not know the loop. */
export function checkOf(entry: LoopEntry, file: string): AnyCheck {
  const check = CHECKS[entry.binding.loop];
  if (!check) throw new InputError(file, 'loop', `expected a loop the checker knows (${Object.keys(CHECKS).join(', ')}), got ${entry.binding.loop}`);
  return check;
}

/** The names `--policy` accepts for this loop (none when it declares no variants). */
export const variantNames = (check: AnyCheck): readonly string[] => check.variants?.names ?? [];

/** Resolves the configuration (scenario config, or one of its variants) and what is claimed for it. */
export function prepareCheck(entry: LoopEntry, scenario: LoadedScenario, options: CheckOptions = {}): PreparedCheck {
  const check = checkOf(entry, scenario.file);
  let config = scenario.config;
  if (options.policy !== undefined) {
    const names = variantNames(check);
    if (!check.variants || names.length === 0) throw new InputError(scenario.file, 'loop', `loop ${check.loop} has no policies to choose from (--policy)`);
    if (!names.includes(options.policy)) throw new InputError(scenario.file, 'loop', `expected a policy of ${check.loop} (${names.join(', ')}), got "${options.policy}"`);
    config = check.variants.apply(config, options.policy);
  }
  check.validate(scenario);
  const policy = options.policy ?? (config as { policy?: string }).policy;
  const alphabet = scenario.timeline.map((e, index) => ({ index, label: check.label(e), entry: e }));
  const properties = check.properties(config, alphabet, options.withinPeriods, scenario.world);
  const binding: LoopBinding<unknown, unknown, unknown> = entry.binding;
  const replayInput = {
    binding, scenario: scenario.name, seed: scenario.seed, ...(policy ? { policy } : {}), config, world: scenario.world,
    alphabet: scenario.timeline,
  };
  return { check, config, ...(policy ? { policy } : {}), alphabet, properties, replayInput };
}

/**
 * `loopscope check`: the scenario's timeline becomes the environment's alphabet — each entry may
 * happen at any instant, in any order, at most once, or never — and every reachable state of the
 * loop is explored under it.
 */
export function checkScenario(entry: LoopEntry, scenario: LoadedScenario, options: CheckOptions = {}): CheckRun {
  const prepared = prepareCheck(entry, scenario, options);
  const { check, config, policy, alphabet, properties, replayInput } = prepared;
  const result = explore(replayInput.binding, check, { config, world: scenario.world }, alphabet, properties, options);
  const counterexamples = result.verdicts.flatMap((v) => (v.status === 'violated' && v.path && v.property.kind !== 'sometimes'
    ? [{ property: v.property.name, path: v.path, trace: counterexampleTrace(replayInput, v.property, v.path, v.settleMs) }]
    : []));
  return {
    scenario, loop: check.loop, config, ...(policy ? { policy } : {}), ...(options.policy !== undefined ? { variant: options.policy } : {}), alphabet, promises: check.promises(config), result, counterexamples,
  };
}

export const anyViolated = (run: CheckRun) => run.result.verdicts.some((v) => v.status === 'violated');
