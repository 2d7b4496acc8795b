import { isLoopId } from '../../sim/loops/define';
import { LOOP_IDS, loopById } from '../../sim/loops/registry';
import { clock } from './format';
import { SCENARIOS } from './scenarios';
import type { LabUrl } from './url';

/**
 * Checks the URL's names against what the lab has: the loop, the scenario (and that it is that
 * loop's), the policy (one of the loop's). Returns the URL with the unusable names dropped, and a
 * sentence for each (the page shows them and opens what it can).
 */
export function checkUrlNames(url: LabUrl): { url: LabUrl; problems: string[] } {
  const problems: string[] = [];
  const out = { ...url };
  if (out.loop !== undefined && !isLoopId(out.loop)) {
    problems.push(`loop=${out.loop}: no such loop (expected one of ${LOOP_IDS.join(', ')})`);
    delete out.loop;
  }
  if (out.scenario !== undefined) {
    const listing = SCENARIOS.find((s) => s.id === out.scenario);
    if (!listing) {
      const near = SCENARIOS.filter((s) => !out.loop || s.loop === out.loop).map((s) => s.id);
      problems.push(`scenario=${out.scenario}: no such scenario${out.loop ? ` for ${out.loop}` : ''} (expected one of ${near.slice(0, 8).join(', ')}${near.length > 8 ? ', …' : ''})`);
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
  return { url: out, problems };
}

/** A link's time past the scenario's end is shown at the end, and said so. */
export function checkTime(t: number | undefined, durationMs: number): string | null {
  return t !== undefined && t > durationMs ? `t=${clock(t)}: after the scenario's end (${clock(durationMs)}); showing the end` : null;
}
