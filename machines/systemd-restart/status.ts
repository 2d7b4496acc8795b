import type { SystemdContext } from './machine';
import type { UnitStatus } from './types';

/**
 * ActiveState/SubState for a machine state, after service.c's state_translation_table:
 * auto-restart counts as activating; a run that ended with a failure Result= is "failed".
 * RestartMode=direct skips the dead/failed-before-auto-restart states (service_enter_dead): the
 * unit goes from its running state straight to activating (auto-restart), so units bound to it
 * and OnFailure= see no deactivation.
 */
export function unitStatus(
  state: string,
  context: Pick<SystemdContext, 'result'> &
    Partial<Pick<SystemdContext, 'decision'>> & { unit?: Pick<SystemdContext['unit'], 'restartMode'> },
): UnitStatus {
  const top = state.split('.')[0];
  switch (top) {
    case 'boot':
    case 'dead':
      return { active: 'inactive', sub: 'dead' };
    case 'startRequested':
    case 'condition':
    case 'starting':
      return { active: 'activating', sub: 'start' };
    case 'oneshotStart':
    case 'oneshotStartTimeout':
      return { active: 'activating', sub: 'start' };
    case 'active':
    case 'activeRuntimeMax':
      return { active: 'active', sub: 'running' };
    case 'exited':
      return { active: 'active', sub: 'exited' };
    case 'watchdogKill':
      return { active: 'deactivating', sub: 'stop-watchdog' };
    case 'stopping':
    case 'stopSigterm':
      return { active: 'deactivating', sub: 'stop-sigterm' };
    case 'stopSigkill':
      return { active: 'deactivating', sub: 'stop-sigkill' };
    case 'stopped':
    case 'evaluating':
    case 'drawingDelay': {
      if (context.decision?.restart && context.unit?.restartMode === 'direct') return { active: 'activating', sub: 'auto-restart' };
      return context.result === 'success'
        ? { active: 'inactive', sub: 'dead-before-auto-restart' }
        : { active: 'failed', sub: 'failed-before-auto-restart' };
    }
    case 'autoRestart':
      return { active: 'activating', sub: 'auto-restart' };
    case 'failed':
      return { active: 'failed', sub: 'failed' };
    default:
      throw new Error(`unknown systemd state "${state}"`);
  }
}
