import { useLanguage, useT } from '../../i18n/i18n';
import { clock } from '../../lab/format';
import type { RunBar } from './cronView';

const LANE_PX = 9;

/** Recent runs as bars per job on a shared time axis; overlapping runs of one job stack in lanes. */
export function RunTimeline({ bars, now }: { bars: RunBar[]; now: number }) {
  const t = useT();
  const lang = useLanguage();
  if (!bars.length) return null;
  const from = Math.min(...bars.map((b) => b.start));
  const span = Math.max(60_000, now - from);
  const x = (ms: number) => `${((ms - from) * 100) / span}%`;
  const jobs = [...new Set(bars.map((b) => b.job))].sort();
  // The names' column as wide as the longest name, in its own font's characters: a fixed pixel width cut
  // names once presenter mode scales the font up.
  const nameWidth = `${Math.max(...jobs.map((j) => j.length)) + 1}ch`;
  return (
    <div className="run-timeline" data-testid="run-timeline">
      <h4>
        {t('jobRuns')}{' '}
        <span className="muted">
          {clock(from)} – {clock(now)}
        </span>
      </h4>
      {jobs.map((job) => {
        const mine = bars.filter((b) => b.job === job);
        const lanes = Math.max(...mine.map((b) => b.lane)) + 1;
        return (
          <div className="run-row" key={job}>
            <span className="run-job" style={{ width: nameWidth }} title={job}>
              {job}
            </span>
            <div className="run-track" style={{ height: lanes * LANE_PX + 4 }}>
              {mine.map((b) => {
                const end = b.end ?? now;
                return (
                  <div
                    key={`${b.start}-${b.minute}`}
                    data-testid="run-bar"
                    data-job={job}
                    data-lane={b.lane}
                    data-running={b.end === null}
                    className={`run-bar${b.skipped ? ' skipped' : ''}${b.end === null ? ' running' : ''}${b.lane > 0 ? ' overlap' : ''}`}
                    style={{ left: x(b.start), width: `max(3px, ${((end - b.start) * 100) / span}%)`, top: b.lane * LANE_PX + 2 }}
                    title={`${job} ${lang === 'pt-BR' ? 'de' : 'for'} ${b.minute}: ${clock(b.start)} – ${b.end === null ? t('stillRunning') : clock(end)}${b.skipped ? ` (${t('skippedRuns')})` : ''}`}
                  />
                );
              })}
            </div>
          </div>
        );
      })}
    </div>
  );
}
