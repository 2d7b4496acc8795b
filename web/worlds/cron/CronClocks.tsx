import type { CronController } from '../../../sim/loops/cron-controller-schema';
import { useT } from '../../i18n/i18n';
import type { CronWorldSummary } from '../../../sim/loops/cron-world-schema';

/** The host's wall clock next to crond's virtualTime (cron.c): they part after a clock jump. */
export function CronClocks({ world, controller }: { world: CronWorldSummary; controller: CronController | undefined }) {
  const t = useT();
  const virtual = controller?.virtualTime ?? null;
  const apart = virtual !== null && virtual !== world.clock;
  return (
    <div className="cron-clocks">
      <div className="clock-card">
        <div className="muted">{t('wallClock')}</div>
        <div className="clock-big" data-testid="wall-clock">
          {world.clock}
        </div>
        {!world.up && (
          <div className="down" data-testid="host-down">
            {t('hostIsDown')}
          </div>
        )}
      </div>
      <div className={`clock-card${apart ? ' apart' : ''}`}>
        <div className="muted">{t('crondClock')}</div>
        <div className="clock-big" data-testid="crond-clock" title={controller ? undefined : t('notRecorded')}>
          {virtual ?? '—'}
        </div>
      </div>
    </div>
  );
}
