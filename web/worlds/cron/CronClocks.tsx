import type { CronContext } from '../../../machines/cron';
import { formatMinute } from '../../../machines/cron';
import { useT } from '../../i18n/i18n';
import type { CronWorldSummary } from '../../../sim/worlds/cron';

/** The host's wall clock next to crond's virtualTime (cron.c): they part after a clock jump. */
export function CronClocks({ world, context }: { world: CronWorldSummary; context: CronContext | undefined }) {
  const t = useT();
  const virtual = context?.virtualTime ?? null;
  const apart = virtual !== null && formatMinute(virtual) !== world.clock;
  return (
    <div className="cron-clocks">
      <div className="clock-card">
        <div className="muted">{t('wallClock')}</div>
        <div className="clock-big" data-testid="wall-clock">{world.clock}</div>
        {!world.up && <div className="down" data-testid="host-down">{t('hostIsDown')}</div>}
      </div>
      <div className={`clock-card${apart ? ' apart' : ''}`}>
        <div className="muted">{t('crondClock')}</div>
        <div className="clock-big" data-testid="crond-clock" title={context ? undefined : t('onlyAtPresent')}>
          {virtual !== null ? formatMinute(virtual) : '—'}
        </div>
      </div>
    </div>
  );
}
