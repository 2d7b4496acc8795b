import type { SystemdContext } from './machine';
import type { UnitStatus } from './types';

/**
 * ActiveState/SubState for a machine state, after service.c's state_translation_table:
 * auto-restart counts as activating; a run that ended with a failure Result= is "failed".
 */
export function unitStatus(state: string, context: Pick<SystemdContext, 'result'>): UnitStatus {
  const top = state.split('.')[0];
  switch (top) {
    case 'boot': case 'dead': return { active: 'inactive', sub: 'dead' };
    case 'startRequested': case 'condition': case 'starting': return { active: 'activating', sub: 'start' };
    case 'active': case 'signalling': return { active: 'active', sub: 'running' };
    case 'watchdogKill': return { active: 'deactivating', sub: 'stop-watchdog' };
    case 'stopping': return { active: 'deactivating', sub: 'stop-sigterm' };
    case 'evaluating': return context.result === 'success' ? { active: 'inactive', sub: 'dead-before-auto-restart' } : { active: 'failed', sub: 'failed-before-auto-restart' };
    case 'autoRestart': return { active: 'activating', sub: 'auto-restart' };
    case 'failed': return { active: 'failed', sub: 'failed' };
    default: throw new Error(`unknown systemd state "${state}"`);
  }
}
