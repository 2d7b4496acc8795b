import { useMemo } from 'react';
import { useT } from '../../i18n/i18n';
import { controllerOf } from '../../../sim/trace';
import type { FrameOf } from '../../../sim/trace';
import type { WorldViewProps } from '../types';
import '../worlds.css';
import { CronClocks } from './CronClocks';
import { CrontabTable } from './CrontabTable';
import { crontabOf, runBars } from './cronView';
import { RunTimeline } from './RunTimeline';

/** crond's world: the two clocks, the crontab with each line's next run, and the recent runs. */
export function CronWorldView({ session, frame }: WorldViewProps<FrameOf<'cron'>>) {
  const t = useT();
  const world = frame.world;
  const entries = crontabOf(session.config);
  const index = session.index;
  // The session's frames grow in place (and a fork replaces them): the frame shown says the bars changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  const bars = useMemo(() => runBars(session.framesOf('cron') ?? [], index), [session, index, frame]);
  return (
    <section className="world cron-world" data-testid="world">
      <h3>
        {t('world')}: {world.running.length} {t('running')}
      </h3>
      <CronClocks world={world} controller={controllerOf(frame, 'cron')} />
      {entries.length > 0 && <CrontabTable entries={entries} world={world} />}
      <RunTimeline bars={bars} now={frame.t} />
    </section>
  );
}
