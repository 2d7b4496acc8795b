import { useMemo } from 'react';
import type { CronEntry } from '../../../machines/cron';
import { useT } from '../../i18n/i18n';
import type { CronWorldSummary } from '../../../sim/loops/cron-world-schema';
import { nextRuns } from './cronView';

/** The crontab lines, when each is next due on the wall clock, and how often each ran. */
export function CrontabTable({ entries, world }: { entries: CronEntry[]; world: CronWorldSummary }) {
  const t = useT();
  const rows = useMemo(() => nextRuns(entries, world.clock), [entries, world.clock]);
  return (
    <table className="world-table" data-testid="crontab">
      <thead>
        <tr>
          <th>{t('job')}</th>
          <th>{t('schedule')}</th>
          <th>{t('nextRun')}</th>
          <th>{t('runs')}</th>
          <th>{t('skippedRuns')}</th>
          <th>{t('maxConcurrent')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ entry, next }) => {
          const c = world.counts[entry.name];
          return (
            <tr key={entry.name} data-testid="crontab-row" data-job={entry.name}>
              <td>{entry.name}</td>
              <td>
                <code>{entry.schedule}</code>
              </td>
              <td data-testid="next-run">{next ?? t('never')}</td>
              <td>{c?.runs ?? 0}</td>
              <td>{c?.skipped ?? 0}</td>
              <td>{c?.maxConcurrent ?? 0}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
