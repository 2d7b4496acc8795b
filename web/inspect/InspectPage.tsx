import { useEffect, useState, useSyncExternalStore } from 'react';
import { useT } from '../i18n/i18n';
import { ActorTree } from './ActorTree';
import { ActorView } from './ActorView';
import { definitionMachine } from './actor-machine';
import { EventLog } from './EventLog';
import { fill } from './format';
import { appUrl, InspectConnection, relayInfo } from './inspect-connection';
import type { InspectLog } from './inspect-log';
import { MAX_EVENTS } from './inspect-log';
import { loadElk } from './runtime-layout';
import './inspect.css';

/** The relay's connection while the page is shown; closed when it leaves. */
function useInspectConnection(): { connection: InspectConnection | null; version: number } {
  const [connection, setConnection] = useState<InspectConnection | null>(null);
  useEffect(() => {
    const c = new InspectConnection();
    setConnection(c);
    // ELK (~1.5 MB of script) loads while the history comes in, not after it.
    loadElk().catch(() => {});
    return () => c.close();
  }, []);
  const version = useSyncExternalStore(connection?.subscribe ?? noSubscribe, () => connection?.version ?? -1);
  return { connection, version };
}
const noSubscribe = () => () => {};

/** The first actor worth showing until the user picks one: the first with a machine to draw. */
const firstMachine = (log: InspectLog): string | undefined =>
  [...log.actors.values()].find((a) => definitionMachine(a.definition).kind === 'machine')?.sessionId ?? log.actors.keys().next().value;

/** `loopscope lab --inspect`: any XState v5 app's actors, their statecharts and snapshots, and the events between them. */
export function InspectPage() {
  const t = useT();
  const { connection, version } = useInspectConnection();
  const [picked, setPicked] = useState<string | undefined>(undefined);
  // The snapshot chosen on the scrubber, for the actor it belongs to; null follows the latest.
  const [chosen, setChosen] = useState<{ sessionId: string; seq: number | null } | null>(null);
  const [only, setOnly] = useState(false);
  const log = connection?.log;
  const selected = log ? (picked !== undefined && log.actors.has(picked) ? picked : firstMachine(log)) : undefined;
  const actor = selected !== undefined ? log?.actors.get(selected) : undefined;
  const status = connection?.status ?? 'connecting';

  return (
    <div className="inspect" data-testid="inspect" data-status={status} data-version={version}>
      <section className="inspect-head">
        <strong>{t('inspectTitle')}</strong>{' '}
        <span className="inspect-muted" data-testid="inspect-status-line">
          {status === 'open'
            ? t('inspectConnected')
            : status === 'closed'
              ? `${t('inspectClosed')}: ${connection?.closeReason ?? ''}`
              : t('inspectConnecting')}
        </span>
        <div className="inspect-muted">
          {t('inspectHelp')} <code data-testid="inspect-app-url">{appUrl(relayInfo())}</code>
        </div>
        {log && log.relayDropped > 0 && (
          <div className="inspect-dropped" role="status" data-testid="inspect-dropped" data-dropped={log.relayDropped}>
            {fill(t('inspectDropped'), { n: log.relayDropped, max: log.relayMaxEvents ?? '?' })}
          </div>
        )}
        {log && log.droppedEvents > 0 && (
          <div className="inspect-dropped" role="status" data-testid="inspect-page-dropped">
            {fill(t('inspectPageDropped'), { n: log.droppedEvents, max: MAX_EVENTS })}
          </div>
        )}
      </section>
      <div className="inspect-body">
        <nav className="inspect-actors" aria-label={t('inspectActors')}>
          <h3>{t('inspectActors')}</h3>
          {log && (
            <ActorTree
              log={log}
              selected={selected}
              onSelect={(id) => {
                setPicked(id);
                setChosen(null);
              }}
            />
          )}
        </nav>
        <main className="inspect-main">
          {actor && (
            <ActorView
              key={actor.sessionId}
              actor={actor}
              count={actor.snapshots.length}
              chosen={chosen?.sessionId === actor.sessionId ? chosen.seq : null}
              onChoose={(seq) => setChosen({ sessionId: actor.sessionId, seq })}
            />
          )}
        </main>
        <section className="inspect-log" aria-label={t('inspectEvents')}>
          <h3>
            {t('inspectEvents')}{' '}
            {actor && (
              <label className="inspect-only">
                <input type="checkbox" data-testid="inspect-only" checked={only} onChange={(e) => setOnly(e.target.checked)} />{' '}
                {t('inspectEventsOf')}
              </label>
            )}
          </h3>
          {log && (
            <EventLog
              log={log}
              count={log.events.length}
              only={only ? selected : undefined}
              until={actor && chosen?.sessionId === actor.sessionId ? chosen.seq : null}
            />
          )}
        </section>
      </div>
    </div>
  );
}
