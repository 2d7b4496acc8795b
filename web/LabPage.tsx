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
import { CloseIcon, ForkIcon } from './components/icons';
import { useLanguage, useT } from './i18n/i18n';
import type { MessageKey } from './i18n/messages';
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

/** What presenter mode folds under the world, one at a time: the interventions, the desired-state editor, the charts. */
type SideTab = 'act' | 'editor' | 'charts';
const TAB_LABEL = { act: 'interventions', editor: 'editorTab', charts: 'chartsTab' } as const satisfies Record<SideTab, MessageKey>;

/** One loop, one scenario (or a loaded trace): banner, controls, statechart, world, charts, interventions, editor.
 * Presenter mode fits all of it in the window (styles.css `.presenter .lab`): the world takes the side column and
 * never gets less than it needs; the interventions, the editor and the charts are tabs under it (key c moves to the
 * next, clicking the open one folds it). */
export function LabPage({ session, presenter, onReset, onMoment, onExitPresenter, onSideBySide }: LabPageProps) {
  useSession(session);
  const t = useT();
  const lang = useLanguage();
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  const [diagramOnly, setDiagramOnly] = useState(false);
  const [chartView, setChartView] = useState<ChartView>(presenter ? 'follow' : 'whole');
  // undefined: the first tab, with what room the world leaves; chosen: that tab, with room kept for it (styles.css);
  // 'folded': none (the world alone). Clicking the open tab gives it room the first time, folds it the second.
  const [tab, setTab] = useState<SideTab | 'folded' | undefined>(undefined);
  const screen = useFullscreen();
  const views = viewsFor(session.loop);
  const machine = loopById(session.loop)?.binding.machine;
  usePlayLoop(session, playing, speed, () => setPlaying(false));
  const live = session.runner !== undefined;
  const tabs: SideTab[] = [
    ...(live && views.Interventions ? ['act' as const] : []),
    ...(live && views.Editor ? ['editor' as const] : []),
    ...(views.Charts ? ['charts' as const] : []),
  ];
  // Outside presenter mode everything shows, one under the other; in it, the open tab (the first until one is chosen).
  const open = tab === 'folded' ? undefined : tab !== undefined && tabs.includes(tab) ? tab : tabs[0];
  const shows = (which: SideTab) => tabs.includes(which) && (!presenter || open === which);
  const nextTab = () => setTab(tabs[(open === undefined ? -1 : tabs.indexOf(open)) + 1] ?? 'folded');
  useEffect(() => setChartView(presenter ? 'follow' : 'whole'), [presenter]);

  const step = useCallback(() => {
    setPlaying(false);
    session.step();
  }, [session]);
  const stepBack = useCallback(() => {
    setPlaying(false);
    session.stepBack();
  }, [session]);
  const togglePlay = useCallback(() => setPlaying((p) => !p && !session.finished), [session]);
  useShortcuts({
    togglePlay,
    step,
    stepBack,
    speed,
    setSpeed,
    toggleDiagramOnly: () => setDiagramOnly((d) => !d),
    toggleChartView: () => setChartView((v) => (v === 'follow' ? 'whole' : 'follow')),
    toggleSideTab: nextTab,
    fullscreen: screen.enter,
  });

  const time = session.time;
  useEffect(() => {
    if (!playing) onMoment(time);
  }, [playing, time, onMoment]);

  const frame = session.frame;
  const previous = session.frames[session.index - 1];
  const forked = session.forked;
  return (
    <div
      className={`lab${diagramOnly ? ' diagram-only' : ''}`}
      data-testid="lab"
      data-loop={session.loop}
      data-playing={playing}
      data-source={session.source.kind}
    >
      <PanelBoundary name="banner" resetKey={frame}>
        <PhaseBanner loop={session.loop} frames={session.frames} index={session.index} time={time} />
      </PanelBoundary>
      <div className="lab-bar">
        <Controls
          playing={playing}
          speed={speed}
          canStepBack={session.index > 0}
          onTogglePlay={togglePlay}
          onStep={step}
          onStepBack={stepBack}
          onReset={() => {
            setPlaying(false);
            onReset();
          }}
          onSpeed={setSpeed}
        />
        <Scrubber
          index={session.index}
          count={session.frames.length}
          atPresent={session.atPresent}
          cycleStart={session.cycleStart}
          onSeek={(i) => {
            setPlaying(false);
            session.seek(i);
          }}
        />
        {presenter && !screen.full && (
          <button
            className="fullscreen-prompt"
            data-testid="fullscreen-prompt"
            onClick={screen.enter}
            title={`${t('enterFullscreen')} (f)`}
          >
            ⤢ {t('enterFullscreen')}
          </button>
        )}
        {/* In presenter mode these two are icons (their words in the tooltip): the bar stays one line at 1280×720. */}
        {onSideBySide && (
          <button
            data-testid="side-by-side"
            onClick={onSideBySide}
            title={`${COMPARE_TEXT[lang].sideBySide}: ${COMPARE_TEXT[lang].sideBySideTitle}`}
            aria-label={COMPARE_TEXT[lang].sideBySide}
          >
            ⇆{presenter ? '' : ` ${COMPARE_TEXT[lang].sideBySide}`}
          </button>
        )}
        <ExportMenu session={session} compact={presenter} />
        {onExitPresenter && (
          <button
            className="presenter-exit"
            data-testid="presenter-exit"
            onClick={onExitPresenter}
            title={`${t('exitPresenter')} (Esc)`}
            aria-label={t('exitPresenter')}
          >
            <CloseIcon />
          </button>
        )}
      </div>
      <Chapters session={session} />
      {forked && (
        <div className="fork-notice" data-testid="fork-notice" role="status">
          <ForkIcon /> {t('forkedAt')} {clock(forked.at)}: {t('forkedDiscarded')} {clock(forked.was)}).
        </div>
      )}
      <div className="lab-main">
        <PanelBoundary name="statechart" resetKey={machine}>
          {machine && (
            <Statechart
              machine={machine}
              loop={session.loop}
              state={frame.state}
              previousState={previous?.state}
              presenter={presenter}
              view={chartView}
              onView={setChartView}
              diagramOnly={diagramOnly}
              onDiagramOnly={() => setDiagramOnly((d) => !d)}
            />
          )}
        </PanelBoundary>
        {!diagramOnly && (
          <div className="lab-side" data-tab-chosen={presenter && tab !== undefined && tab !== 'folded'}>
            <ViewBoundary loop={session.loop} index={session.index}>
              <views.World session={session} frame={frame} />
            </ViewBoundary>
            {presenter && tabs.length > 0 && (
              <div className="side-tabs" role="tablist" title={`${t('tabsTitle')}`}>
                {tabs.map((which) => (
                  <button
                    key={which}
                    role="tab"
                    data-testid={`tab-${which}`}
                    aria-selected={open === which}
                    onClick={() => setTab(open === which && tab !== undefined ? 'folded' : which)}
                  >
                    {t(TAB_LABEL[which])}
                  </button>
                ))}
              </div>
            )}
            {shows('charts') && views.Charts && (
              <ViewBoundary loop={session.loop} index={session.index}>
                <views.Charts session={session} frame={frame} />
              </ViewBoundary>
            )}
            {(shows('act') || shows('editor')) && (
              <div className="side-actions">
                {shows('act') && views.Interventions && (
                  <PanelBoundary name="interventions" resetKey={frame}>
                    <views.Interventions session={session} frame={frame} />
                  </PanelBoundary>
                )}
                {shows('editor') && views.Editor && (
                  <PanelBoundary name="editor" resetKey={session}>
                    <views.Editor session={session} frame={frame} />
                  </PanelBoundary>
                )}
              </div>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
