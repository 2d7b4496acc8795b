import { readYamlFile, scenarioNameOf } from '../scenario/load';
import { installModuleControllers } from '../user-controller/module-reconciler';
import { installPolicyModules } from '../user-controller/policy-module';
import type { SimOptions } from './registry';
import { createRunner, parseScenario } from './registry';

export * from './registry';

// Node can sandbox a user's controller module (scenario `controller: { module }`); the browser cannot.
installModuleControllers();
// Likewise an Incus HPA policy module (`policy: { module }`).
installPolicyModules();

/** Node side: reads a scenario file for whichever loop it names. */
export function loadScenario(file: string, seed?: number) {
  return parseScenario(file, scenarioNameOf(file), readYamlFile(file), seed);
}

/** Builds a runner for a scenario file (not yet run). */
export function runnerFor(file: string, options: SimOptions = {}) {
  const { entry, scenario } = loadScenario(file, options.seed);
  return { entry, scenario, runner: createRunner(entry, scenario, options) };
}
