import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useLanguage } from '../i18n/i18n';
import { ActorTree } from '../inspect/ActorTree';
import '../inspect/inspect.css';
import { LabPage } from '../LabPage';
import { LiveConnection } from './liveConnection';
import { checkLiveUrl } from './liveUrl';
import type { LiveMessageKey } from './messages';
import { LIVE_MESSAGES } from './messages';
import './live.css';

function useLiveT(): (key: LiveMessageKey) => string {
  const messages = LIVE_MESSAGES[useLanguage()];
  return (key) => messages[key];
}

/** Opens the connection for `url` and closes it when the URL changes or the page leaves. */
function useLiveConnection(url: string | null, attempt: number): LiveConnection | null {
  const [connection, setConnection] = useState<LiveConnection | null>(null);
  useEffect(() => {
    if (!url) return;
    const c = new LiveConnection(url);
    setConnection(c);
    return () => {
      c.close();
      setConnection(null);
    };
  }, [url, attempt]);
  const subscribe = useCallback((l: () => void) => connection?.subscribe(l) ?? (() => {}), [connection]);
  useSyncExternalStore(subscribe, () => connection?.version ?? -1);
  return connection;
}

/** Live mode: paste the address `loopscope real --live` printed, watch the run, approve acts. */
export function LivePage({ initialUrl, presenter }: { initialUrl: string; presenter: boolean }) {
  const t = useLiveT();
  const [text, setText] = useState(initialUrl);
  const [problem, setProblem] = useState<string | null>(null);
  const [url, setUrl] = useState<string | null>(() => {
    const checked = initialUrl ? checkLiveUrl(initialUrl) : null;
    return checked?.ok ? checked.url : null;
  });
  useEffect(() => {
    if (initialUrl) {
      const c = checkLiveUrl(initialUrl);
      if (!c.ok) setProblem(c.error);
    }
  }, [initialUrl]);
  const [attempt, setAttempt] = useState(0);
  const connection = useLiveConnection(url, attempt);
  const connect = () => {
    const checked = checkLiveUrl(text);
    if (!checked.ok) {
      setProblem(checked.error);
      return;
    }
    setProblem(null);
    setUrl(checked.url);
    setAttempt((a) => a + 1); // Connect again with the same address reconnects.
  };
  const session = connection?.session;
  const run = connection?.run;

  return (
    <div className="live" data-testid="live" data-status={connection?.status ?? 'idle'}>
      {!presenter && (
        <section className="live-connect">
          <strong>{t('liveTitle')}</strong> <span className="live-help">{t('liveHelp')}</span>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              connect();
            }}
          >
            <input
              data-testid="live-url"
              value={text}
              size={60}
              placeholder="ws://127.0.0.1:PORT/?token=…"
              onChange={(e) => setText(e.target.value)}
            />
            <button data-testid="live-connect" type="submit">
              {t('connect')}
            </button>
            {connection && connection.status !== 'closed' && (
              <button data-testid="live-disconnect" type="button" onClick={() => setUrl(null)}>
                {t('disconnect')}
              </button>
            )}
          </form>
          {problem && (
            <div className="input-error" data-testid="live-error">
              {problem}
            </div>
          )}
          {connection && (
            <div className="live-status" data-testid="live-status">
              {connection.status === 'connecting' && t('connecting')}
              {connection.status === 'open' && (
                <>
                  {t('connected')} · {run?.endpoint} · {run?.scenario} · {run?.config.policy}
                  {' · '}
                  {run?.step ? t('stepMode') : t('watchOnly')}
                  {run?.dryRun ? ` · ${t('dryRun')}` : ''}
                </>
              )}
              {connection.status === 'closed' && `${t('closed')}: ${connection.closeReason ?? ''}`}
            </div>
          )}
          {connection?.error && (
            <div className="input-error" data-testid="live-server-error">
              {connection.error}
            </div>
          )}
        </section>
      )}
      {connection?.pending && (
        <section
          className="live-pending"
          data-testid="live-pending"
          data-kind={connection.pending.kind}
          data-name={connection.pending.name}
        >
          <strong>{t('pendingTitle')}</strong>
          <pre data-testid="live-pending-text">{connection.pending.text}</pre>
          <button data-testid="live-approve" onClick={() => connection.answer('approve')}>
            {t('approve')}
          </button>{' '}
          <button data-testid="live-skip" onClick={() => connection.answer('skip')}>
            {t('skip')}
          </button>
        </section>
      )}
      {connection && connection.log.actors.size > 0 && (
        // The machine's actors as its XState inspection tells them, drawn by the inspector page's tree.
        <details className="live-actors" data-testid="live-actors">
          <summary>
            {t('actors')} ({connection.log.actors.size})
          </summary>
          <ActorTree log={connection.log} selected={undefined} onSelect={() => undefined} />
        </details>
      )}
      {connection?.status === 'open' && run && !session?.frames.length && <p data-testid="live-waiting">{t('waitingFrame')}</p>}
      {session && session.frames.length > 0 && (
        <LabPage
          key={session.id}
          session={session}
          presenter={presenter}
          onMoment={() => {}}
          onReset={() => session.seek(session.frames.length - 1)}
        />
      )}
    </div>
  );
}
