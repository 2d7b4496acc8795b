import type { ResourceConfig, TerraformContext } from '../../machines/terraform';
import { viewOf } from '../../sim/check/counterexample';
import type { CheckProperty, CheckView } from '../../sim/check/model';
import type { TerraformLoopConfig } from '../../sim/loops/terraform';
import { parseTerraformScenario, terraformBinding } from '../../sim/loops/terraform';
import { Runner } from '../../sim/runner';
import { readYamlFile, scenarioNameOf } from '../../sim/scenario/load';
import type { TerraformFault, TerraformWorld } from '../../sim/worlds/terraform';

export type TerraformRunner = Runner<TerraformWorld, TerraformFault, TerraformLoopConfig>;
export type TerraformProperty = CheckProperty<TerraformWorld, TerraformLoopConfig, TerraformContext>;

/** A terraform scenario file and a typed runner for it (not yet run). */
export function terraformRunnerFor(file: string) {
  const scenario = parseTerraformScenario(file, scenarioNameOf(file), readYamlFile(file));
  const runner = new Runner(terraformBinding, {
    scenario: scenario.name,
    seed: scenario.seed,
    world: scenario.world,
    config: scenario.config,
    timeline: scenario.timeline,
  });
  return { scenario, runner };
}

/**
 * Runs to `until`, evaluating the explorer's property objects after every processed item (a
 * timeline entry, an operation's answer, a delayed event): every `always` one in each state,
 * every `eventually` one in each state from `settledBy` on. Returns the first failure.
 */
export function driveChecking(
  runner: TerraformRunner,
  until: number,
  always: readonly TerraformProperty[],
  eventually: readonly TerraformProperty[] = [],
  settledBy = Number.POSITIVE_INFINITY,
): { t: number; property: string } | null {
  const check = () => {
    const v = viewOf(runner);
    const broken = always.find((p) => !p.holds(v)) ?? (runner.t >= settledBy ? eventually.find((p) => !p.holds(v)) : undefined);
    return broken ? { t: runner.t, property: broken.name } : null;
  };
  const first = check();
  if (first) return first;
  for (let next = runner.nextEventAt; next !== undefined && next <= until; next = runner.nextEventAt) {
    runner.processNext();
    const failure = check();
    if (failure) return failure;
  }
  runner.run(until);
  return null;
}

/** The same view as if the running terraform had read `resources` when its run started (for tests of the claims). */
export function asIfRunRead(
  v: CheckView<TerraformWorld, TerraformLoopConfig, TerraformContext>,
  resources: ResourceConfig[],
): CheckView<TerraformWorld, TerraformLoopConfig, TerraformContext> {
  const ctx = v.snapshot.context as TerraformContext;
  return { ...v, snapshot: { ...v.snapshot, context: { ...ctx, runConfig: { ...ctx.runConfig, resources } } } };
}
