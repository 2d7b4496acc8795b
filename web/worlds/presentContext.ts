import type { LabSession } from '../lab/session';

/**
 * The machine's context, but only while the lab shows the present of a live simulation:
 * frames record the world and the state, not the context, so a past frame or a loaded trace
 * has none (views then show what the frames themselves say).
 */
export function presentContext<C>(session: LabSession): C | undefined {
  if (!session.runner || !session.atPresent) return undefined;
  return session.runner.snapshot.context as C;
}
