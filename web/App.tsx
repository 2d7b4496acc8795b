import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Trace } from '../sim/trace';
import { ScenarioBar } from './components/ScenarioBar';
import { Home } from './home/Home';
import { LanguageProvider, useT } from './i18n/i18n';
import { LabPage } from './LabPage';
import { SCENARIOS, openScenario } from './lab/scenarios';
import { LivePage } from './live/LivePage';
import { LabSession } from './lab/session';
import type { LabUrl } from './lab/url';
import { readUrl, replaceUrl } from './lab/url';

/** Builds the simulation the URL names; a bad scenario file shows its InputError. */
function useSimSession(url: LabUrl, resets: number): { session?: LabSession; error?: string } {
  const listing = SCENARIOS.find((s) => s.id === url.scenario);
  return useMemo(() => {
    if (!listing) return {};
    try {
      const { runner, scenario } = openScenario(listing, { ...(url.seed !== undefined ? { seed: url.seed } : {}), ...(url.policy ? { policy: url.policy } : {}) });
      const session = new LabSession({ kind: 'sim', runner, durationMs: scenario.durationMs, scenario: scenario.name });
      if (url.t && resets === 0) session.advanceTo(url.t);
      return { session };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
    // Only these rebuild the run; t is read once (a link to a moment), not on every tick.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listing, url.seed, url.policy, resets]);
}

/** Presenter mode asks for full screen (a user gesture); Escape leaves it. */
function usePresenter(on: boolean, leave: () => void): void {
  useEffect(() => {
    if (!on) return;
    document.documentElement.requestFullscreen?.().catch(() => { /* refused (e.g. headless): stay in the window */ });
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') leave(); };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    };
  }, [on, leave]);
}

function PresenterExit({ onExit }: { onExit(): void }) {
  const t = useT();
  return <button className="presenter-exit" data-testid="presenter-exit" onClick={onExit}>✕ {t('exitPresenter')}</button>;
}

export function App() {
  const [url, setUrl] = useState<LabUrl>(() => readUrl(location.search));
  const [resets, setResets] = useState(0);
  const [traceSession, setTraceSession] = useState<LabSession | null>(null);
  // Live mode (web/live/): '' shows the address form; ?live=ws://… connects at once.
  const [live, setLive] = useState<string | null>(() => new URLSearchParams(location.search).get('live'));
  const sim = useSimSession(url, resets);
  const session = traceSession ?? sim.session;

  const change = useCallback((patch: Partial<LabUrl>) => {
    setUrl((u) => { const next = { ...u, ...patch }; replaceUrl(next); return next; });
  }, []);
  const onMoment = useCallback((t: number) => change({ t }), [change]);
  const leavePresenter = useCallback(() => change({ presenter: false }), [change]);
  usePresenter(url.presenter, leavePresenter);

  const onBarChange = (patch: Partial<LabUrl>) => {
    // A new run (scenario, seed, policy) starts at t=0 and leaves a loaded trace.
    const newRun = 'scenario' in patch || 'seed' in patch || 'policy' in patch;
    if (newRun) setTraceSession(null);
    if (newRun || 'loop' in patch) setLive(null);
    change(newRun ? { ...patch, t: undefined } : patch);
  };
  const onTrace = (trace: Trace, fileName: string) => {
    setTraceSession(new LabSession({ kind: 'trace', trace, fileName }));
    setLive(null);
    change({ loop: trace.loop, scenario: undefined, seed: trace.seed, policy: trace.policy, t: undefined });
  };

  return (
    <LanguageProvider value={url.lang}>
      <div className={`app${url.presenter ? ' presenter' : ''}`} data-testid="app" data-lang={url.lang}>
        <ScenarioBar url={url} loop={session?.loop ?? url.loop} onChange={onBarChange} onTrace={onTrace}
          traceName={traceSession?.source.kind === 'trace' ? traceSession.source.fileName : undefined} onLive={() => setLive('')} />
        {url.presenter && <PresenterExit onExit={leavePresenter} />}
        {sim.error && <pre className="input-error" data-testid="scenario-error">{sim.error}</pre>}
        {live !== null
          ? <LivePage initialUrl={live} presenter={url.presenter} />
          : session
          ? <LabPage key={session.id} session={session} presenter={url.presenter} onMoment={onMoment}
              onReset={() => { setTraceSession(null); setResets((r) => r + 1); }} />
          : !sim.error && <Home onOpen={(loop, scenario) => onBarChange({ loop, scenario, seed: undefined, policy: undefined })} />}
      </div>
    </LanguageProvider>
  );
}
