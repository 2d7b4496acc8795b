// loadScenario: a scenario file read and validated once, as a handle simulate and check accept in
// place of the file. The handle is plain data; what the simulator needs (the loop's definition and
// the parsed scenario) stays behind it in a WeakMap, so a handle cannot be forged or edited into an
// inconsistent state.
import type { LoadedScenario, LoopEntry, LoopId } from '../sim/loops';
import { parseScenario, withPolicy } from '../sim/loops';
import { NODE_LOADERS } from '../sim/user-controller/node-loaders';
import { readYamlFile, scenarioNameOf } from '../sim/scenario/load';
import { UsageError } from '../cli/usage';
import { policyOption, seedOption } from './options';

/** A scenario file, read and validated: what `simulate` and `check` run. */
export interface Scenario {
  /** The path it was read from. */
  readonly file: string;
  /** The loop it drives (its `loop:` key). */
  readonly loop: LoopId;
  /** Its `name:` (else the file name without .yaml). */
  readonly name: string;
  readonly description: string;
  /** The seed it runs with: the one asked for, else its own `seed:` (else 1). */
  readonly seed: number;
  /** Its `duration:` in virtual milliseconds: how long `simulate` runs by default. */
  readonly durationMs: number;
  /** The names the `policy` option accepts for this loop (empty: the loop has none). */
  readonly policies: readonly string[];
  /** The policy it runs with: the one asked for, else the one its config names; absent when neither. */
  readonly policy?: string;
}

/** Options of `loadScenario`: each overrides what the file says. */
export interface LoadOptions {
  /** Seed of the simulated world's randomness (`--seed`): a whole number ≥ 0. */
  seed?: number;
  /** One of the loop's policies (`--policy`; see `Scenario.policies`). */
  policy?: string;
}

/** What stands behind a handle. */
export interface Loaded {
  entry: LoopEntry;
  scenario: LoadedScenario;
  /** The policy asked for (a loop's named variant), not the config's own. */
  variant?: string;
  /** The YAML document, kept to parse again with another seed (the seed shapes the world). */
  doc: unknown;
}

const behind = new WeakMap<Scenario, Loaded>();

function parsed(file: string, doc: unknown, options: { seed?: number | undefined; policy?: string | undefined }): Loaded {
  const { entry, scenario } = parseScenario(file, scenarioNameOf(file), doc, options.seed, NODE_LOADERS);
  // Validate the policy now, with the message `sim --policy` gives.
  if (options.policy !== undefined) withPolicy(entry, scenario, options.policy);
  return { entry, scenario, ...(options.policy !== undefined ? { variant: options.policy } : {}), doc };
}

/** The policy the runner records for a config (sim/loops/registry.ts createRunner reads the same key). */
function ownPolicy(config: unknown): string | undefined {
  const policy = typeof config === 'object' && config !== null && 'policy' in config ? config.policy : undefined;
  return typeof policy === 'string' ? policy : undefined;
}

function handleOf(loaded: Loaded): Scenario {
  const { entry, scenario, variant } = loaded;
  const policy = variant ?? ownPolicy(scenario.config);
  const handle: Scenario = Object.freeze({
    file: scenario.file,
    loop: entry.id,
    name: scenario.name,
    description: scenario.description,
    seed: scenario.seed,
    durationMs: scenario.durationMs,
    policies: Object.freeze([...(entry.policies?.names ?? [])]),
    ...(policy !== undefined ? { policy } : {}),
  });
  behind.set(handle, loaded);
  return handle;
}

/**
 * Reads and validates a scenario YAML file (as `loopscope sim` does before it runs).
 * @throws InputError (or InputErrors, one line each) naming the file, the field and what was expected;
 *   UsageError for a bad option.
 */
export function loadScenario(file: string, options: LoadOptions = {}): Scenario {
  const seed = seedOption(options.seed);
  const policy = policyOption(options.policy);
  if (typeof file !== 'string') throw new UsageError('<scenario>', `expected a scenario file path, got ${typeof file}`);
  return handleOf(parsed(file, readYamlFile(file), { seed, policy }));
}

/**
 * What simulate and check run: the handle's scenario (parsed again when another seed is asked
 * for), or the file read now.
 */
export function resolveScenario(source: Scenario | string, options: { seed?: number | undefined } = {}): Loaded {
  if (typeof source === 'string') return parsed(source, readYamlFile(source), options);
  const loaded = typeof source === 'object' && source !== null ? behind.get(source) : undefined;
  if (!loaded) throw new UsageError('<scenario>', 'expected a scenario file path or a Scenario returned by loadScenario()');
  if (options.seed === undefined || options.seed === loaded.scenario.seed) return loaded;
  return parsed(loaded.scenario.file, loaded.doc, { seed: options.seed, policy: loaded.variant });
}
