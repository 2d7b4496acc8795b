import { parseScenarioText } from '../../sim/loops/registry';
import type { Moment } from '../../sim/scenario/moments';
import { BUILTIN_MOMENTS, momentIndex } from '../../sim/scenario/moments';
import { SCENARIOS } from '../lab/scenarios';
import type { LabSession } from '../lab/session';

const cache = new Map<string, Moment[]>();

/** The declared moments of the scenario a simulation runs (read from the same bundled file the lab
 * opened, matched by loop and name); none for a loaded trace. */
export function declaredMoments(session: LabSession): Moment[] {
  if (session.source.kind !== 'sim') return [];
  const key = `${session.loop}/${session.scenarioName}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let found: Moment[] = [];
  for (const listing of SCENARIOS) {
    if (listing.loop !== session.loop) continue;
    try {
      const { scenario } = parseScenarioText(listing.file, listing.id, listing.text);
      if (scenario.name === session.scenarioName) {
        found = scenario.moments ?? [];
        break;
      }
    } catch {
      /* a broken file has no chapters; the lab shows its error when it is opened */
    }
  }
  cache.set(key, found);
  return found;
}

/** A moment by name: the scenario's own first, then the events every run has (first-act …). */
export function findMoment(session: LabSession, name: string): Moment | undefined {
  return declaredMoments(session).find((m) => m.name === name) ?? BUILTIN_MOMENTS.find((m) => m.name === name);
}

/** Every name a link may use for this run. */
export const momentNames = (session: LabSession): string[] => [...declaredMoments(session), ...BUILTIN_MOMENTS].map((m) => m.name);

/**
 * Shows the frame where a moment happens: a recorded frame if the run has been there (the past, as
 * the scrubber shows it), else the simulation goes forward until it happens or the scenario ends.
 * Returns false when it does not happen in this run.
 */
export function jumpTo(session: LabSession, moment: Moment): boolean {
  let i = momentIndex(moment, session.frames);
  const runner = session.runner;
  if (i === undefined && runner) {
    if ('at' in moment) {
      session.advanceTo(moment.at);
    } else {
      let from = session.frames.length;
      while (i === undefined) {
        const next = runner.nextEventAt;
        if (next === undefined || next > session.durationMs || !runner.processNext()) break;
        const found = momentIndex(moment, session.frames.slice(from));
        if (found !== undefined) i = from + found;
        from = session.frames.length;
      }
    }
    i ??= momentIndex(moment, session.frames);
  }
  if (i === undefined) return false;
  session.seek(i);
  return true;
}
