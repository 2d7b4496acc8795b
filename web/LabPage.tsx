import { useCallback, useEffect, useState } from 'react';
import { loopById } from '../sim/loops/registry';
import { Chapters } from './chapters/Chapters';
import { Controls } from './components/Controls';
import { PanelBoundary } from './components/PanelBoundary';
import { PhaseBanner } from './components/PhaseBanner';
import { Scrubber } from './components/Scrubber';
import { useFullscreen } from './components/useFullscreen';
import { useShortcuts } from './components/useShortcuts';
import { ViewBoundary } from './components/ViewBoundary';
import { ExportMenu } from './export/ExportMenu';
import { useLanguage, useT } from './i18n/i18n';
import { COMPARE_TEXT } from './compare/messages';
import { clock } from './lab/format';
import type { LabSession } from './lab/session';
import { usePlayLoop } from './lab/usePlayLoop';
import { useSession } from './lab/useSession';
import type { ChartView } from './statechart/Statechart';
import { Statechart } from './statechart/Statechart';
import { viewsFor } from './worlds/views';

export interface LabPageProps {
  session: LabSession;
  presenter: boolean;
  onReset(): void;
  /** Called when the moment on screen changes while paused (the URL's `t`). */
  onMoment(t: number): void;
  /** Presenter mode's way out (a button in the lab's own bar, so it covers nothing). */
  onExitPresenter?(): void;
  /** Opens side by side (the same scenario under the loop's policies; web/compare). */
  onSideBySide?(): void;
}

type SideTab = 'act' | 'charts';

/** One loop, one scenario (or a loaded trace): banner, controls, statechart, world, charts, interventions, editor.
 * Presenter mode fits all of it in the window (styles.css `.presenter .lab`): the charts share a tab with the
 * interventions and the desired-state editor (key c). */
export function LabPage({ session, presenter, onReset, onMoment, onExitPresenter, onSideBySide }: LabPageProps) {
  useSession(session);
  const t = useT();
  const lang = useLanguage();
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  const [diagramOnly, setDiagramOnly] = useState(false);
  const [chartView, setChartView] = useState<ChartView>(presenter ? 'follow' : 'whole');
  const [tab, setTab] = useState<SideTab>('act');
  const screen = useFullscreen();
  const views = viewsFor(session.loop);
  const machine = loopById(session.loop)?.binding.machine;
  usePlayLoop(session, playing, speed, () => setPlaying(false));
  useEffect(() => setChartView(presenter ? 'follow' : 'whole'), [presenter]);

  const step = useCallback(() => { setPlaying(false); session.step(); }, [session]);
  const stepBack = useCallback(() => { setPlaying(false); session.stepBack(); }, [session]);
  const togglePlay = useCallback(() => setPlaying((p) => !p && !session.finished), [session]);
  useShortcuts({
    togglePlay, step, stepBack, speed, setSpeed,
    toggleDiagramOnly: () => setDiagramOnly((d) => !d),
    toggleChartView: () => setChartView((v) => (v === 'follow' ? 'whole' : 'follow')),
    toggleSideTab: () => setTab((x) => (x === 'act' ? 'charts' : 'act')),
    fullscreen: screen.enter,
  });

  const time = session.time;
  useEffect(() => { if (!playing) onMoment(time); }, [playing, time, onMoment]);

  const frame = session.frame;
  const previous = session.frames[session.index - 1];
  const live = session.runner !== undefined;
  const hasActions = live && (views.Interventions !== undefined || views.Editor !== undefined);
  const showActions = hasActions && (!presenter || tab === 'act');
  const showCharts = views.Charts !== undefined && (!presenter || !hasActions || tab === 'charts');
  const forked = session.forked;
  return (
    <div className={`lab${diagramOnly ? ' diagram-only' : ''}`} data-testid="lab" data-loop={session.loop} data-playing={playing} data-source={session.source.kind}>
      <PanelBoundary name="banner" resetKey={frame}>
        <PhaseBanner loop={session.loop} frames={session.frames} index={session.index} time={time} />
      </PanelBoundary>
      <div className="lab-bar">
        <Controls playing={playing} speed={speed} canStepBack={session.index > 0} onTogglePlay={togglePlay}
          onStep={step} onStepBack={stepBack} onReset={() => { setPlaying(false); onReset(); }} onSpeed={setSpeed} />
        <Scrubber index={session.index} count={session.frames.length} atPresent={session.atPresent} cycleStart={session.cycleStart}
          onSeek={(i) => { setPlaying(false); session.seek(i); }} />
        {presenter && !screen.full && (
          <button className="fullscreen-prompt" data-testid="fullscreen-prompt" onClick={screen.enter} title={`${t('enterFullscreen')} (f)`}>⤢ {t('enterFullscreen')}</button>
        )}
        {/* In presenter mode these two are icons (their words in the tooltip): the bar stays one line at 1280×720. */}
        {onSideBySide && <button data-testid="side-by-side" onClick={onSideBySide} title={`${COMPARE_TEXT[lang].sideBySide}: ${COMPARE_TEXT[lang].sideBySideTitle}`}
          aria-label={COMPARE_TEXT[lang].sideBySide}>⇆{presenter ? '' : ` ${COMPARE_TEXT[lang].sideBySide}`}</button>}
        <ExportMenu session={session} compact={presenter} />
        {onExitPresenter && <button className="presenter-exit" data-testid="presenter-exit" onClick={onExitPresenter} title="Esc">✕ {t('exitPresenter')}</button>}
      </div>
      <Chapters session={session} />
      {forked && (
        <div className="fork-notice" data-testid="fork-notice" role="status">
          ⑂ {t('forkedAt')} {clock(forked.at)}: {t('forkedDiscarded')} {clock(forked.was)}).
        </div>
      )}
      <div className="lab-main">
        <PanelBoundary name="statechart" resetKey={machine}>
          {machine && <Statechart machine={machine} state={frame.state} previousState={previous?.state} presenter={presenter}
            view={chartView} onView={setChartView} diagramOnly={diagramOnly} onDiagramOnly={() => setDiagramOnly((d) => !d)} />}
        </PanelBoundary>
        {!diagramOnly && (
          <div className="lab-side">
            <ViewBoundary loop={session.loop} index={session.index}>
              <views.World session={session} frame={frame} />
            </ViewBoundary>
            {presenter && hasActions && views.Charts && (
              <div className="side-tabs" role="tablist">
                <button role="tab" data-testid="tab-act" aria-selected={tab === 'act'} onClick={() => setTab('act')}>{t('worldTab')}</button>
                <button role="tab" data-testid="tab-charts" aria-selected={tab === 'charts'} onClick={() => setTab('charts')} title="c">{t('chartsTab')}</button>
              </div>
            )}
            {showCharts && views.Charts && (
              <ViewBoundary loop={session.loop} index={session.index}>
                <views.Charts session={session} frame={frame} />
              </ViewBoundary>
            )}
            {showActions && (
              <div className="side-actions">
                {views.Interventions && <PanelBoundary name="interventions" resetKey={frame}><views.Interventions session={session} frame={frame} /></PanelBoundary>}
                {views.Editor && <PanelBoundary name="editor" resetKey={session}><views.Editor session={session} frame={frame} /></PanelBoundary>}
              </div>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
