import { viewOf } from '../../sim/check/counterexample';
import type { CheckProperty } from '../../sim/check/model';
import type { SystemdConfig } from '../../sim/loops/systemd-restart';
import { SAFETY_PROPERTIES } from '../../sim/properties/systemd-restart';
import type { Runner } from '../../sim/runner';
import type { SystemdFault, SystemdWorld } from '../../sim/worlds/systemd-restart';
import type { SystemdContext } from '../../machines/systemd-restart';

export type SystemdRunner = Runner<SystemdWorld, SystemdFault, SystemdConfig>;
type Property = CheckProperty<SystemdWorld, SystemdConfig, SystemdContext>;

/** The always-properties: the same objects `loopscope check` explores. */
export const SAFETY: readonly Property[] = SAFETY_PROPERTIES;

export interface Failure {
  property: string;
  t: number;
  state: string;
}

/** The first of `properties` that fails in the runner's current state, if any. */
export function failing(runner: SystemdRunner, properties: readonly Property[]): Failure | null {
  const view = viewOf(runner);
  const p = properties.find((x) => !x.holds(view));
  return p ? { property: p.name, t: runner.t, state: runner.stateValue } : null;
}

/**
 * Steps the runner item by item while `keepGoing` says so (at most `maxItems`), checking
 * `properties` in the first state and after every item, as the explorer checks every state.
 */
export function driveChecking(
  runner: SystemdRunner,
  properties: readonly Property[],
  keepGoing: (r: SystemdRunner) => boolean,
  maxItems = 3000,
): Failure | null {
  let failure = failing(runner, properties);
  for (let i = 0; !failure && i < maxItems && keepGoing(runner) && runner.processNext(); i++) failure = failing(runner, properties);
  return failure;
}
