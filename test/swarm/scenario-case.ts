// The swarm against the explorer on one shipped check scenario: the explorer runs here (its
// verdicts and shortest counterexamples are not copied into the test), then the swarm, which must
// find every always/eventually property the explorer finds violated, shrink each to at most the
// explorer's shortest length + 2, and hand back a path that the Runner (the `sim` replay an
// emitted test uses) replays into the same violation.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { checkScenario, prepareCheck } from '../../sim/check/check';
import type { PreparedCheck } from '../../sim/check/check';
import { replay, runQuiet, viewOf } from '../../sim/check/counterexample';
import type { CheckProperty, PathStep } from '../../sim/check/model';
import { loadScenario } from '../../sim/loops';
import { seedsOf } from '../../sim/swarm/seeds';
import { runSwarm } from '../../sim/swarm/swarm';

export const ROOT = resolve(import.meta.dirname, '../..');

/** The shipped check scenarios. */
export const CHECK_SCENARIOS = readdirSync(join(ROOT, 'scenarios'))
  .filter((f) => /-check-.*\.yaml$/.test(f))
  .sort();

/**
 * Check scenarios in which the explorer finds no always/eventually property violated (their
 * verdicts are pinned by the check tests, test/check/ and test/<loop>/): the swarm has nothing to
 * find there, and exploring them would only cost the suite time.
 */
export const NOTHING_TO_FIND = new Set([
  'incus-hpa-check-small.yaml',
  'kubernetes-check-composite.yaml',
  'kubernetes-check-database.yaml',
  'kubernetes-check-decorator.yaml',
  'kubernetes-check-hpa.yaml',
  'kubernetes-check-queue-scaler.yaml',
  'kubernetes-check-replicaset.yaml',
  'puppet-check-drift.yaml',
  'puppet-check-package-file-service.yaml',
  'systemd-restart-check-restart-sec.yaml',
  'systemd-restart-check-timeout.yaml',
]);

/** How many seeds the swarm gets: a bound, not a tuned number (most are found in the first ten). */
export const SEEDS = { from: 0, to: 299 };

export function swarmFindsWhatTheExplorerFinds(file: string): void {
  it(`${file}: the swarm finds each violation the explorer finds, at most 2 steps longer, and it replays`, async () => {
    const path = join(ROOT, 'scenarios', file);
    const { entry, scenario } = loadScenario(path);
    const explorer = checkScenario(entry, scenario);
    const violated = explorer.result.verdicts.filter(
      (v) => v.status === 'violated' && (v.property.kind === 'always' || v.property.kind === 'eventually'),
    );
    expect(violated.length, `${file}: the explorer finds nothing violated; move it to NOTHING_TO_FIND`).toBeGreaterThan(0);

    const prepared = prepareCheck(entry, scenario);
    const names = violated.map((v) => v.property.name);
    const swarm = await runSwarm(prepared, { seeds: seedsOf(SEEDS), untilFound: names });
    for (const verdict of violated) {
      const name = verdict.property.name;
      const found = swarm.violations.find((v) => v.property === name);
      expect(found, `${file}: ${name} not found in seeds ${SEEDS.from}..${SEEDS.to}`).toBeDefined();
      const shortest = verdict.path!.length;
      expect(
        found!.path.length,
        `${file}: ${name}: shrunk ${found!.foundLength} → ${found!.path.length}, explorer's shortest ${shortest}`,
      ).toBeLessThanOrEqual(shortest + 2);
      // The explorer's shortest is a lower bound: a shorter swarm path would mean the two disagree.
      expect(found!.path.length).toBeGreaterThanOrEqual(shortest);
      expect(
        violatesWhenReplayed(prepared, verdict.property, found!.path),
        `${file}: ${name}: the swarm's path does not violate it when the Runner replays it`,
      ).toBe(true);
    }
  }, 240_000);
}

/**
 * The path replayed through the Runner (as `sim` and the lab run it), the property judged there:
 * an always-property fails in its last state; an eventually-property, once the environment stops
 * there, still fails past its bound, or for ever (the quiet run comes round to a state it was in,
 * or nothing is left to happen, while it fails).
 */
function violatesWhenReplayed(prepared: PreparedCheck, property: CheckProperty<unknown, unknown>, path: readonly PathStep[]): boolean {
  const runner = replay(prepared.replayInput, path);
  if (property.kind === 'always') return !property.holds(viewOf(runner));
  const stopped = runner.t;
  const bound = property.withinMs!;
  let lastFailing = property.holds(viewOf(runner)) ? undefined : runner.t;
  const { cycleFrame } = runQuiet(runner, prepared.replayInput.key, stopped + 2 * bound, () => {
    if (!property.holds(viewOf(runner))) lastFailing = runner.t;
  });
  if (lastFailing === undefined) return false;
  const cycleAt = cycleFrame === undefined ? undefined : runner.frames[cycleFrame]!.t;
  const ended = runner.nextEventAt === undefined && !property.holds(viewOf(runner));
  return ended || (cycleAt !== undefined && lastFailing >= cycleAt) || lastFailing - stopped > bound;
}
