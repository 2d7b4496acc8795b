import type { Frame, Phase } from '../../sim/trace';
import { useT } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages';
import { clock } from '../lab/format';

const EXPLAIN: Record<Phase, MessageKey> = {
  observe: 'phaseObserve', compare: 'phaseCompare', act: 'phaseAct', wait: 'phaseWait', error: 'phaseError',
};

/** OBSERVE / COMPARE / ACT / WAIT in large type, with the policy's decision in words. */
export interface PhaseBannerProps {
  frame: Frame;
  /** The last comparison's note (what was compared and decided). */
  decision: Frame | undefined;
  /** The newest note of any kind (an act's result, a fault, a config edit). */
  latest: Frame | undefined;
  time: number;
}

export function PhaseBanner({ frame, decision, latest, time }: PhaseBannerProps) {
  const t = useT();
  return (
    <section className={`banner phase-${frame.phase}`} data-testid="phase-banner">
      <div className="phase-name" data-testid="phase" data-phase={frame.phase}>{frame.phase.toUpperCase()}</div>
      <div className="phase-detail">
        <div className="phase-explain">{t(EXPLAIN[frame.phase])}</div>
        <div className="decision" data-testid="decision">
          {decision?.note ? <><b>{t('decision')}</b> <span className="at">@{clock(decision.t)}</span> {decision.note}</> : t('noDecision')}
        </div>
        <div className={`latest${latest && latest !== decision ? '' : ' same'}`} data-testid="note">
          {latest && latest !== decision ? <><span className="at">@{clock(latest.t)}</span> {latest.note}</> : decision?.note ?? ''}
        </div>
        <div className="status-line">
          <span>{t('state')}: <code data-testid="state">{frame.state}</code></span>
          <span>{t('time')}: <code data-testid="time">{clock(time)}</code></span>
          <span className="event">event: <code data-testid="event">{frame.event}</code></span>
        </div>
      </div>
    </section>
  );
}
