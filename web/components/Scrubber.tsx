import { useT } from '../i18n/i18n';

/**
 * A slider over the recorded frames: time travel without changing the run. A lasso trace (a
 * liveness counterexample, trace.lasso) gets its cycle drawn under the slider as a loop: a bracket
 * from the cycle's first frame to the last, with an arrow back — those frames repeat forever.
 */
export function Scrubber({
  index,
  count,
  atPresent,
  onSeek,
  cycleStart,
}: {
  index: number;
  count: number;
  atPresent: boolean;
  onSeek(i: number): void;
  cycleStart?: number | undefined;
}) {
  const t = useT();
  const last = Math.max(0, count - 1);
  return (
    <div className="scrubber">
      <div className="scrubber-track">
        <input
          data-testid="scrubber"
          type="range"
          min={0}
          max={last}
          value={index}
          onChange={(e) => onSeek(Number(e.target.value))}
          aria-label="frames"
        />
        {cycleStart !== undefined && last > 0 && (
          <button
            type="button"
            className="lasso"
            data-testid="lasso"
            data-cycle-start={cycleStart}
            title={t('lassoTitle')}
            style={{ left: `${(Math.min(cycleStart, last) / last) * 100}%` }}
            onClick={() => onSeek(cycleStart)}
          >
            <span className="lasso-label">↺ {t('repeatsForever')}</span>
          </button>
        )}
      </div>
      <span data-testid="frame-index">
        {index + 1}/{count}
      </span>
      {/* Presenter mode keeps the bar on one line: the short word, the sentence in its tooltip. */}
      {!atPresent && (
        <span className="past" data-testid="viewing-past" title={t('past')}>
          <span className="past-long">{t('past')}</span>
          <span className="past-short">{t('pastShort')}</span>
        </span>
      )}
    </div>
  );
}
