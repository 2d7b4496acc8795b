import { useT } from '../i18n/i18n';

/** A slider over the recorded frames: time travel without changing the run. */
export function Scrubber({ index, count, atPresent, onSeek }: { index: number; count: number; atPresent: boolean; onSeek(i: number): void }) {
  const t = useT();
  return (
    <div className="scrubber">
      <input data-testid="scrubber" type="range" min={0} max={Math.max(0, count - 1)} value={index}
        onChange={(e) => onSeek(Number(e.target.value))} aria-label="frames" />
      <span data-testid="frame-index">{index + 1}/{count}</span>
      {!atPresent && <span className="past" data-testid="viewing-past">{t('past')}</span>}
    </div>
  );
}
