import { keyText } from './key-writer';
import type { LoadedScenario, LoopEntry } from '../loops/registry';
import { withPolicy } from '../loops/registry';
import type { LoopBinding } from '../model';
import type { Trace } from '../trace';
import type { ReplayInput } from './counterexample';
import { counterexampleTrace, replay, viewOf } from './counterexample';
import { withLassos } from './lasso-trace';
import type { OtherHistory } from './other-history';
import { comparesHistories } from './other-history';
import type { ExploreOptions, ExploreResult, PathStep } from './model';
import { explore, exploreAsync, isHandOver } from './explorer';
import { Pool, exploreParallel } from './parallel';
import type { CheckProperty, EnvMove, LoopCheck } from './model';
import { stateKey } from './symmetry';

export interface CheckOptions extends ExploreOptions {
  /** One of the loop's policies (its definition's `policies`, e.g. an HPA policy). */
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
  /** One per violated always/eventually property: its shortest path and its trace (and, for a
   * differential property, the other history it was compared with). */
  counterexamples: { property: string; path: PathStep[]; trace: Trace; other?: OtherHistory }[];
}

type AnyCheck = LoopCheck<unknown, unknown, unknown>;

/** Everything a check (or a replay of one of its counterexamples) starts from. */
export interface PreparedCheck {
  check: AnyCheck;
  config: unknown;
  policy?: string;
  alphabet: EnvMove<unknown, unknown>[];
  properties: CheckProperty<unknown, unknown>[];
  /** The configuration's promises, its liveness promises included. */
  promises: readonly string[];
  replayInput: ReplayInput<unknown, unknown, unknown>;
}

/** The loop's check (every registered loop has one: sim/loops/define.ts). */
export const checkOf = (entry: LoopEntry): AnyCheck => entry.check;

/** The names `--policy` accepts for this loop (none when it has no policies). */
export const variantNames = (entry: LoopEntry): readonly string[] => entry.policies?.names ?? [];

/** Resolves the configuration (scenario config, or one of its variants) and what is claimed for it. */
export function prepareCheck(entry: LoopEntry, scenario: LoadedScenario, options: CheckOptions = {}): PreparedCheck {
  const check = checkOf(entry);
  const config = options.policy !== undefined ? withPolicy(entry, scenario, options.policy) : scenario.config;
  check.validate(scenario);
  const policy = options.policy ?? (config as { policy?: string }).policy; // cast: every loop's config names its policy, if any, in policy
  const repeating = new Set(scenario.repeating ?? []);
  const alphabet: EnvMove<unknown, unknown>[] = scenario.timeline.map((e, index) => ({
    index,
    label: check.label(e),
    entry: e,
    ...(repeating.has(index) ? { repeats: true } : {}),
  }));
  for (const e of check.choices?.({ config, world: scenario.world }, scenario.timeline) ?? [])
    alphabet.push({ index: alphabet.length, label: check.label(e), entry: e, repeats: true, choice: true });
  const properties = check.properties(config, alphabet, options.withinPeriods, scenario.world);
  // Liveness is claimed only when the environment may act for ever (sim/check/liveness.ts).
  const live = repeating.size > 0 ? check.liveness?.(config, alphabet) : undefined;
  if (live) properties.push(...live.properties);
  const promises = [...check.promises(config), ...(live?.promises ?? [])];
  const binding: LoopBinding<unknown, unknown, unknown> = entry.binding;
  const replayInput = {
    binding,
    scenario: scenario.name,
    seed: scenario.seed,
    ...(policy ? { policy } : {}),
    config,
    world: scenario.world,
    alphabet: alphabet.map((m) => m.entry),
    key: keyText(check.canonicalizer({ config, world: scenario.world }, alphabet)),
  };
  return { check, config, ...(policy ? { policy } : {}), alphabet, properties, promises, replayInput };
}

/**
 * `loopscope check`: the scenario's timeline becomes the environment's alphabet — each entry may
 * happen at any instant, in any order, at most once, or never — and every reachable state of the
 * loop is explored under it.
 */
export function checkScenario(entry: LoopEntry, scenario: LoadedScenario, options: CheckOptions = {}): CheckRun {
  const prepared = prepareCheck(entry, scenario, options);
  const { check, config, alphabet, properties, replayInput } = prepared;
  return checkRun(
    scenario,
    prepared,
    options,
    explore(replayInput.binding, check, { config, world: scenario.world }, alphabet, properties, options),
  );
}

/** checkScenario, yielding to the event loop while it searches: `signal` (Ctrl-C) stops it with the partial result. */
export async function checkScenarioAsync(
  entry: LoopEntry,
  scenario: LoadedScenario,
  options: CheckOptions & {
    signal?: AbortSignal;
    sliceMs?: number;
    /** Tests of the parallel search: the workers search from the initial state, no thread searches first. */
    parallelNow?: boolean;
    /** Tests of the hand-over: the workers boot at once and this thread hands over at the first level boundary at this depth or deeper. */
    handOverAtDepth?: number;
  } = {},
): Promise<CheckRun> {
  const prepared = prepareCheck(entry, scenario, options);
  const { check, config, alphabet, properties, replayInput } = prepared;
  const workers = options.workers ?? 1;
  if (workers > 1 && (options.spillDir !== undefined || options.checkpoint))
    throw new Error('explorer: spilling and checkpoints are not supported by the parallel search (workers: 1)');
  const explore = (hooks: { onSlice?: () => void; handOver?: (depth: number) => boolean } = {}) =>
    exploreAsync(replayInput.binding, check, { config, world: scenario.world }, alphabet, properties, { ...options, ...hooks });
  let result: ExploreResult<unknown, unknown>;
  if (workers <= 1) {
    const alone = await explore();
    if (isHandOver(alone)) throw new Error('explorer: a search of one thread handed over');
    result = alone;
  } else {
    // Workers take a while to boot (loading the loop through tsx), so this thread searches alone
    // first; a search still running after a second boots them, and once they are ready this search
    // finishes the level it is expanding and hands its book over: the workers go on from there
    // (parallel.ts). Searches under a second never start a worker; with parallelNow (tests of the
    // parallel search itself) the workers search from the initial state.
    const began = performance.now();
    let pool: Pool | undefined;
    const boot = () =>
      new Pool(workers, {
        loop: entry.id,
        scenario,
        ...(options.policy !== undefined ? { policy: options.policy } : {}),
        ...(options.withinPeriods ? { withinPeriods: options.withinPeriods } : {}),
        memo: options.memo ?? true,
        symmetry: options.symmetry ?? true,
      });
    const { handOverAtDepth } = options;
    try {
      if (options.parallelNow || handOverAtDepth !== undefined) pool = boot();
      const first = options.parallelNow
        ? undefined
        : await explore(
            handOverAtDepth !== undefined
              ? { handOver: (depth) => depth >= handOverAtDepth }
              : {
                  onSlice: () => {
                    if (!pool && performance.now() - began > 1000) pool = boot();
                  },
                  handOver: () => pool?.isReady ?? false,
                },
          );
      if (first === undefined || isHandOver(first)) {
        const parallel = await exploreParallel(pool!, properties, options, first);
        // The workers merge states by the same key (symmetry.ts): what they did is decided here alike.
        const { symmetry } = stateKey(check, { config, world: scenario.world }, alphabet, options.symmetry ?? true);
        result = { ...parallel, stats: { ...parallel.stats, symmetry } };
      } else result = first;
    } finally {
      await pool?.close();
    }
  }
  return checkRun(scenario, prepared, options, result);
}

function checkRun(
  scenario: LoadedScenario,
  prepared: PreparedCheck,
  options: CheckOptions,
  result: ExploreResult<unknown, unknown>,
): CheckRun {
  const { check, config, policy, alphabet, replayInput, promises } = prepared;
  const counterexamples = result.verdicts.flatMap((v) =>
    v.status === 'violated' && v.path && v.property.kind !== 'sometimes'
      ? [
          {
            property: v.property.name,
            path: v.path,
            trace: counterexampleTrace(replayInput, v.property, v.path, v.settleMs),
            ...otherHistory(replayInput, v.property, v.path),
          },
        ]
      : [],
  );
  return {
    scenario,
    loop: check.loop,
    config,
    ...(policy ? { policy } : {}),
    ...(options.policy !== undefined ? { variant: options.policy } : {}),
    alphabet,
    promises,
    result,
    counterexamples: withLassos(prepared, result, counterexamples),
  };
}

/** A differential property's other history, for the state at the end of the counterexample. */
function otherHistory(input: ReplayInput<unknown, unknown, unknown>, property: CheckProperty<unknown, unknown>, path: PathStep[]) {
  if (!comparesHistories(property)) return {};
  const other = property.other(viewOf(replay(input, path)));
  if (!other) return {};
  const { trace } = other;
  return {
    other: {
      ...other,
      trace: {
        ...trace,
        scenario: `${input.scenario} · ${other.label}`,
        seed: input.seed,
        ...(input.policy ? { policy: input.policy } : {}),
      },
    },
  };
}
