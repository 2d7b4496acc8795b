import { readYamlFile, scenarioNameOf } from '../scenario/load';
import { NODE_LOADERS } from '../user-controller/node-loaders';
import type { SimOptions } from './registry';
import { createRunner, parseScenario } from './registry';

export * from './registry';

/** Node side: reads a scenario file for whichever loop it names. Node can sandbox a user's
 * controller or policy module, or call its webhooks; the browser cannot. */
export function loadScenario(file: string, seed?: number) {
  return parseScenario(file, scenarioNameOf(file), readYamlFile(file), seed, NODE_LOADERS);
}

/** Builds a runner for a scenario file (not yet run). */
export function runnerFor(file: string, options: SimOptions = {}) {
  const { entry, scenario } = loadScenario(file, options.seed);
  return { entry, scenario, runner: createRunner(entry, scenario, options) };
}
