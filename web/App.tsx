import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Trace } from '../sim/trace';
import { PanelBoundary } from './components/PanelBoundary';
import { ComparePage } from './compare/ComparePage';
import { ScenarioBar } from './components/ScenarioBar';
import { useFullscreen } from './components/useFullscreen';
import { Home } from './home/Home';
import { LanguageProvider, useT } from './i18n/i18n';
import { LabPage } from './LabPage';
import { SCENARIOS, openScenario } from './lab/scenarios';
import { openPageTrace } from './lab/page-files';
import { LivePage } from './live/LivePage';
import { InspectPage } from './inspect/InspectPage';
import { relayInfo } from './inspect/inspect-connection';
import { LabSession } from './lab/session';
import type { LabUrl } from './lab/url';
import { locationParams, parseUrl, replaceUrl } from './lab/url';
import { checkTime, checkUrlNames } from './lab/url-check';
import { loopById } from '../sim/loops/registry';
import { linkMoment } from './chapters/Chapters';
import { TourBar } from './tour/TourBar';
import { TOUR } from './tour/stops';

/** Builds the simulation the URL names; a bad scenario file shows its InputError. */
function useSimSession(url: LabUrl, resets: number): { session?: LabSession; error?: string; late?: string } {
  const listing = SCENARIOS.find((s) => s.id === url.scenario);
  return useMemo(() => {
    if (!listing) return {};
    try {
      const { runner, scenario } = openScenario(listing, {
        ...(url.seed !== undefined ? { seed: url.seed } : {}),
        ...(url.policy ? { policy: url.policy } : {}),
      });
      const session = new LabSession({ kind: 'sim', runner, durationMs: scenario.durationMs, scenario: scenario.name });
      const late = resets === 0 ? checkTime(url.t, scenario.durationMs) : null;
      if (url.t && resets === 0) session.advanceTo(url.t);
      return { session, ...(late ? { late } : {}) };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
    // Only these rebuild the run; t is read once (a link to a moment), not on every tick.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listing, url.seed, url.policy, resets]);
}

/** Presenter mode: Escape leaves it. Full screen needs a click or a key (browsers refuse it to a page
 * load), so a deep link shows a one-click prompt instead (LabPage); toggling presenter mode asks at once. */
function usePresenter(on: boolean, leave: () => void): void {
  useEffect(() => {
    if (!on) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') leave();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    };
  }, [on, leave]);
}

/** What was wrong with the link, one line per parameter; the page opened what it could. */
function UrlProblems({ problems, onDismiss }: { problems: string[]; onDismiss(): void }) {
  const t = useT();
  return (
    <div className="input-error url-problems" data-testid="url-problems" role="alert">
      <b>{t('urlProblem')}:</b>
      <ul>
        {problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      <button data-testid="url-problems-dismiss" onClick={onDismiss} aria-label="dismiss">
        ✕
      </button>
    </div>
  );
}

function PresenterExit({ onExit }: { onExit(): void }) {
  const t = useT();
  return (
    <button className="presenter-exit floating" data-testid="presenter-exit" onClick={onExit}>
      ✕ {t('exitPresenter')}
    </button>
  );
}

/** One of the traces the page carries (`loopscope lab run.json`), checked as a file from disk is, at the link's time. */
function pageTraceSession(index: number, t?: number): { session: LabSession } | { problem: string } {
  const opened = openPageTrace(index);
  if (!opened.ok) return { problem: `trace=${index}: ${opened.error}` };
  const session = new LabSession({ kind: 'trace', trace: opened.trace, fileName: opened.fileName });
  if (t) session.advanceTo(t);
  return { session };
}

/** What a page trace shows in the URL: its loop and number (a scenario, tour or comparison no longer shows). */
const pageTraceUrl = (session: LabSession, index: number): Partial<LabUrl> => ({
  loop: session.loop,
  trace: index,
  scenario: undefined,
  seed: undefined,
  policy: undefined,
  moment: undefined,
  compare: undefined,
  tour: undefined,
});

function initialUrl(): { url: LabUrl; problems: string[]; trace: LabSession | null } {
  const parsed = parseUrl(locationParams());
  const named = checkUrlNames(parsed.url);
  const problems = [...parsed.problems, ...named.problems];
  if (named.url.trace !== undefined) {
    const opened = pageTraceSession(named.url.trace, named.url.t);
    if ('session' in opened)
      return { url: { ...named.url, ...pageTraceUrl(opened.session, named.url.trace) }, problems, trace: opened.session };
    problems.push(opened.problem);
    delete named.url.trace;
  }
  // A link to a tour stop without its own moment= opens the stop's chapter.
  if (named.url.tour !== undefined && parsed.url.moment === undefined && named.url.moment) linkMoment(named.url.moment);
  return { url: named.url, problems, trace: null };
}

export function App() {
  const [first] = useState(initialUrl);
  const [url, setUrl] = useState<LabUrl>(first.url);
  const [problems, setProblems] = useState<string[]>(first.problems);
  const [resets, setResets] = useState(0);
  const [traceSession, setTraceSession] = useState<LabSession | null>(first.trace);
  // Live mode (web/live/): '' shows the address form; ?live=ws://… connects at once.
  const [live, setLive] = useState<string | null>(() => new URLSearchParams(locationParams()).get('live'));
  const sim = useSimSession(url, resets);
  const session = traceSession ?? sim.session;
  const screen = useFullscreen();
  const [lateSeen, setLateSeen] = useState(false);
  // Side by side (web/compare): the scenario under 2–3 of its loop's policies, when the URL asks and no trace or live view is shown.
  const listing = SCENARIOS.find((s) => s.id === url.scenario);
  const policies = loopById(listing?.loop)?.policies?.names;
  const comparing = !traceSession && live === null ? url.compare : undefined;
  const shown = [...problems, ...(sim.late && !lateSeen && !traceSession ? [sim.late] : [])];

  const change = useCallback((patch: Partial<LabUrl>) => {
    setUrl((u) => {
      const next = { ...u, ...patch };
      replaceUrl(next);
      return next;
    });
  }, []);
  // The URL names only what opened (a dropped bad parameter is not written back).
  useEffect(() => {
    replaceUrl(first.url);
  }, [first]);
  const onMoment = useCallback((t: number) => change({ t }), [change]);
  const leavePresenter = useCallback(() => change({ presenter: false }), [change]);
  usePresenter(url.presenter, leavePresenter);

  const onBarChange = (patch: Partial<LabUrl>) => {
    // A new run (scenario, seed, policy) starts at t=0 and leaves a loaded trace.
    const newRun = 'scenario' in patch || 'seed' in patch || 'policy' in patch;
    if (newRun) {
      setTraceSession(null);
      setProblems([]);
    }
    if (newRun || 'loop' in patch) setLive(null);
    // A run or a loop chosen leaves the inspector.
    if ((newRun || 'loop' in patch) && url.inspect) patch = { ...patch, inspect: undefined };
    // Turning presenter mode on is a click: the browser grants full screen now.
    if (patch.presenter === true) screen.enter();
    // Side by side stays on for another scenario of the same loop (its policies), not for another loop.
    const otherLoop = 'loop' in patch && patch.loop !== url.loop;
    // Another run chosen by hand leaves the tour.
    change(
      newRun
        ? { ...patch, t: undefined, moment: undefined, tour: undefined, trace: undefined, ...(otherLoop ? { compare: undefined } : {}) }
        : patch,
    );
    // A page opened from the home page starts at its top (banner and controls in view).
    if ('scenario' in patch) window.scrollTo(0, 0);
  };
  /** A stop of the talk's tour: its scenario, fresh, at its prepared chapter. */
  const goTour = (stop: number) => {
    const to = TOUR[stop - 1];
    if (!to) return;
    linkMoment(to.moment);
    setTraceSession(null);
    setProblems([]);
    setLive(null);
    change({
      tour: stop,
      loop: to.loop,
      scenario: to.scenario,
      seed: undefined,
      policy: undefined,
      t: undefined,
      moment: to.moment,
      compare: undefined,
      trace: undefined,
    });
    window.scrollTo(0, 0);
  };
  const touring = url.tour !== undefined && live === null && !traceSession && !comparing && url.scenario === TOUR[url.tour - 1]?.scenario;
  const onTrace = (trace: Trace, fileName: string) => {
    setTraceSession(new LabSession({ kind: 'trace', trace, fileName }));
    setLive(null);
    setProblems([]);
    change({
      loop: trace.loop,
      scenario: undefined,
      seed: trace.seed,
      policy: trace.policy,
      t: undefined,
      moment: undefined,
      trace: undefined,
    });
  };
  /** A trace the page carries, chosen in the bar: opens as a file from disk does, and the URL names it. */
  const onPageTrace = (index: number) => {
    const opened = pageTraceSession(index);
    if ('problem' in opened) {
      setProblems([opened.problem]);
      return;
    }
    setTraceSession(opened.session);
    setLive(null);
    setProblems([]);
    change({ ...pageTraceUrl(opened.session, index), t: undefined });
  };
  /** Reset: a page's trace starts over from its first frame; a trace from disk is left (the URL's scenario, if any, runs afresh). */
  const reset = () => {
    const again = url.trace !== undefined ? pageTraceSession(url.trace) : null;
    setTraceSession(again && 'session' in again ? again.session : null);
    setResets((r) => r + 1);
  };

  return (
    <LanguageProvider value={url.lang}>
      <div className={`app${url.presenter ? ' presenter' : ''}`} data-testid="app" data-lang={url.lang}>
        <PanelBoundary name="topbar" resetKey={url}>
          <ScenarioBar
            url={url}
            loop={session?.loop ?? url.loop}
            onChange={onBarChange}
            onTrace={onTrace}
            onPageTrace={onPageTrace}
            traceName={traceSession?.source.kind === 'trace' ? traceSession.source.fileName : undefined}
            onLive={() => {
              setLive('');
              change({ inspect: undefined });
            }}
            onInspect={
              relayInfo()
                ? () => {
                    setLive(null);
                    change({ inspect: true });
                  }
                : undefined
            }
          />
        </PanelBoundary>
        {url.presenter && (live !== null || !session) && <PresenterExit onExit={leavePresenter} />}
        {shown.length > 0 && (
          <UrlProblems
            problems={shown}
            onDismiss={() => {
              setProblems([]);
              setLateSeen(true);
            }}
          />
        )}
        {sim.error && (
          <pre className="input-error" data-testid="scenario-error">
            {sim.error}
          </pre>
        )}
        {touring && url.tour !== undefined && (
          <PanelBoundary name="tour" resetKey={url.tour}>
            <TourBar stop={url.tour} onGo={goTour} onLeave={() => change({ tour: undefined })} />
          </PanelBoundary>
        )}
        <PanelBoundary
          name={url.inspect ? 'inspect' : live !== null ? 'live' : session ? 'lab' : 'home'}
          resetKey={url.inspect ? 'inspect' : (session ?? live)}
        >
          {url.inspect ? (
            <InspectPage />
          ) : live !== null ? (
            <LivePage initialUrl={live} presenter={url.presenter} />
          ) : comparing && listing && policies ? (
            <ComparePage
              listing={listing}
              seed={url.seed}
              columns={comparing}
              policies={policies}
              startAt={sim.session?.time}
              onColumns={(compare) => change({ compare })}
              onExit={() => change({ compare: undefined })}
            />
          ) : session ? (
            <LabPage
              key={session.id}
              session={session}
              presenter={url.presenter}
              onMoment={onMoment}
              onExitPresenter={url.presenter ? leavePresenter : undefined}
              onSideBySide={policies && !traceSession ? () => change({ compare: policies.slice(0, 2) }) : undefined}
              onReset={reset}
            />
          ) : (
            !sim.error && (
              <Home
                onOpen={(loop, scenario) => onBarChange({ loop, scenario, seed: undefined, policy: undefined })}
                onTour={() => goTour(1)}
              />
            )
          )}
        </PanelBoundary>
      </div>
    </LanguageProvider>
  );
}
