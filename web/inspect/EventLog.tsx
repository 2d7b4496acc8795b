import { useLayoutEffect, useRef } from 'react';
import { useT } from '../i18n/i18n';
import { clock, shown } from './format';
import type { InspectLog } from './inspect-log';

/** The page draws the newest events only: thousands of rows would make every new event slow to show. */
const SHOWN = 500;

/**
 * The events in the order sent, newest last: time, source → target, type; kept scrolled to the newest.
 * `until`: the seq of the snapshot the scrubber shows (null: the latest) — events after it are dimmed.
 */
export function EventLog({ log, count, only, until }: { log: InspectLog; count: number; only: string | undefined; until: number | null }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const events = (only ? log.events.filter((e) => e.targetId === only || e.sourceId === only) : log.events).slice(-SHOWN);
  const name = (id: string | undefined) => (id === undefined ? '—' : (log.actors.get(id)?.name ?? id));
  // Kept at the newest while the reader is there; one who scrolled up to read is left where they are.
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && atEnd.current) el.scrollTop = el.scrollHeight;
  }, [count, only]);
  if (events.length === 0)
    return (
      <p className="inspect-muted" data-testid="inspect-no-events">
        {t('inspectNoEvents')}
      </p>
    );
  return (
    <div
      className="inspect-events"
      ref={box}
      onScroll={(e) => {
        const el = e.currentTarget;
        atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      <table>
        <tbody>
          {events.map((e) => (
            <tr
              key={e.seq}
              data-testid="inspect-event"
              data-type={e.type}
              data-target={e.targetId}
              data-source={e.sourceId ?? ''}
              className={until !== null && e.seq > until ? 'inspect-later' : undefined}
            >
              <td className="inspect-time">{clock(e.at)}</td>
              <td title={e.sourceId ?? ''}>{name(e.sourceId)}</td>
              <td>→</td>
              <td title={e.targetId}>{name(e.targetId)}</td>
              <td title={shown(e.event)}>
                <code>{e.type}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
