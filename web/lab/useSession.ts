import { useSyncExternalStore } from 'react';
import type { LabSession } from './session';

/** Re-renders whenever the session moves; returns its version (a cheap memo key). */
export function useSession(session: LabSession): number {
  return useSyncExternalStore(session.subscribe, session.getVersion);
}
