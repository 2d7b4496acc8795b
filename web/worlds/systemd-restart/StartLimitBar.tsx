import { useT } from '../../i18n/i18n';
import { clock } from '../../lab/format';
import type { StartWindow } from './unitView';

/**
 * ratelimit_below() as unit_test_start_limit() uses it: a window opens at the first start and
 * lasts StartLimitIntervalSec; a start beyond StartLimitBurst inside it is refused.
 */
export function StartLimitBar({ window, now }: { window: StartWindow; now: number }) {
  const t = useT();
  if (window.intervalMs <= 0 || window.burst <= 0)
    return (
      <div className="start-limit" data-testid="start-limit">
        {t('limitOff')}
      </div>
    );
  const open = window.begin !== null && now - window.begin <= window.intervalMs;
  const num = open ? window.num : 0;
  const cells = Array.from({ length: window.burst }, (_, i) => i < num);
  return (
    <div className="start-limit" data-testid="start-limit" data-num={num} data-burst={window.burst}>
      <div className="limit-cells">
        {cells.map((used, i) => (
          <span key={i} className={used ? 'used' : ''} />
        ))}
        {num > window.burst && <span className="over">+{num - window.burst}</span>}
      </div>
      <span>
        {num}/{window.burst} {t('startsInWindow')} ·{' '}
        {open ? `${t('windowOpen')} ${clock(window.begin! + window.intervalMs)}` : t('windowClosed')}
      </span>
    </div>
  );
}
