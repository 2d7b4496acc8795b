import { isLoopId } from '../../sim/loops/define';
import { LOOP_IDS, loopById } from '../../sim/loops/registry';
import { clock } from './format';
import { SCENARIOS } from './scenarios';
import type { LabUrl } from './url';
import { TOUR } from '../tour/stops';

/**
 * Checks the URL's names against what the lab has: the loop, the scenario (and that it is that
 * loop's), the policy (one of the loop's). Returns the URL with the unusable names dropped, and a
 * sentence for each (the page shows them and opens what it can).
 */
export function checkUrlNames(url: LabUrl): { url: LabUrl; problems: string[] } {
  const problems: string[] = [];
  const out = { ...url };
  if (out.tour !== undefined) {
    const stop = TOUR[out.tour - 1];
    if (!stop) {
      problems.push(`tour=${out.tour}: no such stop (expected 1 to ${TOUR.length})`);
      delete out.tour;
    } else if (out.scenario === undefined) {
      // A link to a stop opens its scenario at its chapter.
      Object.assign(out, { loop: stop.loop, scenario: stop.scenario, moment: out.moment ?? stop.moment });
    }
  }
  if (out.loop !== undefined && !isLoopId(out.loop)) {
    problems.push(`loop=${out.loop}: no such loop (expected one of ${LOOP_IDS.join(', ')})`);
    delete out.loop;
  }
  if (out.scenario !== undefined) {
    const listing = SCENARIOS.find((s) => s.id === out.scenario);
    if (!listing) {
      const near = SCENARIOS.filter((s) => !out.loop || s.loop === out.loop).map((s) => s.id);
      problems.push(
        `scenario=${out.scenario}: no such scenario${out.loop ? ` for ${out.loop}` : ''} (expected one of ${near.slice(0, 8).join(', ')}${near.length > 8 ? ', …' : ''})`,
      );
      delete out.scenario;
    } else if (out.loop !== undefined && listing.loop !== out.loop) {
      problems.push(`loop=${out.loop}: scenario ${listing.id} belongs to ${listing.loop}; opened it as ${listing.loop}`);
      out.loop = listing.loop;
    } else out.loop = listing.loop;
  }
  if (out.policy !== undefined) {
    const names = loopById(out.loop)?.policies?.names;
    if (!names) {
      problems.push(`policy=${out.policy}: ${out.loop ?? 'this page'} has no policies`);
      delete out.policy;
    } else if (!names.includes(out.policy)) {
      problems.push(`policy=${out.policy}: no such policy (expected one of ${names.join(', ')})`);
      delete out.policy;
    }
  }
  if (out.compare !== undefined) {
    const problem = compareProblem(out.compare, loopById(out.loop)?.policies?.names, out.loop);
    if (problem) {
      problems.push(`compare=${out.compare.join(',')}: ${problem}`);
      delete out.compare;
    }
  }
  return { url: out, problems };
}

/** The side-by-side columns' token for the scenario's own policy (whatever value its file gives). */
export const SCENARIO_POLICY = 'scenario';

/** Side by side needs 2 or 3 different columns, each one of the loop's policies (or the scenario's own). */
function compareProblem(columns: readonly string[], names: readonly string[] | undefined, loop: string | undefined): string | null {
  if (!names) return `${loop ?? 'this page'} has no policies to compare`;
  const allowed = [SCENARIO_POLICY, ...names];
  const bad = columns.filter((c) => !allowed.includes(c));
  if (bad.length) return `no such policy ${bad.map((b) => `"${b}"`).join(', ')} (expected 2 or 3 of ${allowed.join(', ')})`;
  if (new Set(columns).size !== columns.length || columns.length < 2 || columns.length > 3)
    return `expected 2 or 3 different policies of ${allowed.join(', ')}`;
  return null;
}

/** A link's time past the scenario's end is shown at the end, and said so. */
export function checkTime(t: number | undefined, durationMs: number): string | null {
  return t !== undefined && t > durationMs ? `t=${clock(t)}: after the scenario's end (${clock(durationMs)}); showing the end` : null;
}
