import type { CronFault } from '../../../sim/worlds/cron';
import { useT } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';

const JUMPS: { label: string; byMs: number }[] = [
  { label: '−1h', byMs: -3_600_000 },
  { label: '+5m', byMs: 300_000 },
  { label: '+1h', byMs: 3_600_000 },
];

/** Clock jumps (settimeofday, DST) and a host outage (sim/worlds/cron.ts CronFault). */
export function CronInterventions({ session }: WorldViewProps) {
  const t = useT();
  const inject = (fault: CronFault) => session.inject(fault);
  return (
    <section className="interventions" data-testid="interventions">
      <h3>{t('interventions')}</h3>
      <div className="row">
        {t('clockJump')}:
        {JUMPS.map((j) => (
          <button key={j.label} data-testid={`clock-jump-${j.byMs}`} onClick={() => inject({ kind: 'clockJump', byMs: j.byMs })}>
            {j.label}
          </button>
        ))}
        <button data-testid="host-down" onClick={() => inject({ kind: 'hostDown', forMs: 600_000 })}>
          {t('hostDown10')}
        </button>
      </div>
    </section>
  );
}
