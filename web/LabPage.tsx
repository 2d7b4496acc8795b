import { useCallback, useEffect, useState } from 'react';
import { loopById } from '../sim/loops/registry';
import { Controls } from './components/Controls';
import { PhaseBanner } from './components/PhaseBanner';
import { Scrubber } from './components/Scrubber';
import { useShortcuts } from './components/useShortcuts';
import { ViewBoundary } from './components/ViewBoundary';
import type { LabSession } from './lab/session';
import { usePlayLoop } from './lab/usePlayLoop';
import { useSession } from './lab/useSession';
import { Statechart } from './statechart/Statechart';
import { viewsFor } from './worlds/views';

export interface LabPageProps {
  session: LabSession;
  presenter: boolean;
  onReset(): void;
  /** Called when the moment on screen changes while paused (the URL's `t`). */
  onMoment(t: number): void;
}

/** One loop, one scenario (or a loaded trace): banner, controls, statechart, world, charts. */
export function LabPage({ session, presenter, onReset, onMoment }: LabPageProps) {
  useSession(session);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  const views = viewsFor(session.loop);
  const machine = loopById(session.loop)?.binding.machine;
  usePlayLoop(session, playing, speed, () => setPlaying(false));

  const step = useCallback(() => { setPlaying(false); session.step(); }, [session]);
  const stepBack = useCallback(() => { setPlaying(false); session.stepBack(); }, [session]);
  const togglePlay = useCallback(() => setPlaying((p) => !p && !session.finished), [session]);
  useShortcuts({ togglePlay, step, stepBack, speed, setSpeed });

  const time = session.time;
  useEffect(() => { if (!playing) onMoment(time); }, [playing, time, onMoment]);

  const frame = session.frame;
  const previous = session.frames[session.index - 1];
  const live = session.runner !== undefined;
  return (
    <div className="lab" data-testid="lab" data-loop={session.loop} data-playing={playing} data-source={session.source.kind}>
      <PhaseBanner frame={frame} decision={session.noteFrame('compare')} latest={session.noteFrame()} time={time} />
      <Controls playing={playing} speed={speed} canStepBack={session.index > 0} onTogglePlay={togglePlay}
        onStep={step} onStepBack={stepBack} onReset={() => { setPlaying(false); onReset(); }} onSpeed={setSpeed} />
      <Scrubber index={session.index} count={session.frames.length} atPresent={session.atPresent}
        onSeek={(i) => { setPlaying(false); session.seek(i); }} />
      {machine && <Statechart machine={machine} state={frame.state} previousState={previous?.state} />}
      <ViewBoundary loop={session.loop} index={session.index}>
        <views.World session={session} frame={frame} />
        {views.Charts && <views.Charts session={session} frame={frame} />}
      </ViewBoundary>
      {live && !presenter && views.Interventions && <views.Interventions session={session} frame={frame} />}
      {live && !presenter && views.Editor && <views.Editor session={session} frame={frame} />}
    </div>
  );
}
