import { useMemo } from 'react';
import { useT } from '../i18n/i18n';
import { ActorChart } from './ActorChart';
import { definitionMachine, dottedValue } from './actor-machine';
import { clock, shown } from './format';
import type { InspectedActor } from './inspect-log';

/**
 * One actor at one of its snapshots: `chosen` is that snapshot's seq, or null to follow the latest.
 * Everything here — the chart's active state, the status, the context — is read from that snapshot.
 */
export function ActorView({
  actor,
  count,
  chosen,
  onChoose,
}: {
  actor: InspectedActor;
  /** How many snapshots the actor has now: the view redraws when one arrives (the log grows in place). */
  count: number;
  chosen: number | null;
  onChoose(seq: number | null): void;
}) {
  const t = useT();
  const snapshots = actor.snapshots;
  const found = chosen === null ? -1 : snapshots.findIndex((s) => s.seq === chosen);
  const index = found >= 0 ? found : count - 1;
  const snapshot = snapshots[index];
  const previous = index > 0 ? snapshots[index - 1] : undefined;
  const machine = useMemo(() => definitionMachine(actor.definition), [actor.definition]);
  const following = chosen === null || found < 0;

  return (
    <section
      className="inspect-actor-view"
      data-testid="inspect-actor-view"
      data-session={actor.sessionId}
      data-index={index}
      data-count={count}
      data-following={following}
    >
      <h3>
        {actor.name} <code>{actor.sessionId}</code>
      </h3>
      {machine.kind === 'machine' && actor.definition !== undefined && snapshot ? (
        <ActorChart
          definition={actor.definition}
          machine={machine.machine}
          value={snapshot.value}
          previousState={previous ? dottedValue(previous.value) : undefined}
        />
      ) : machine.kind === 'error' ? (
        <pre className="input-error" data-testid="inspect-chart-error">
          {t('inspectBadDefinition')}: {machine.error}
        </pre>
      ) : (
        <p className="inspect-muted" data-testid="inspect-no-chart">
          {actor.definition === undefined ? t('inspectNoDefinition') : t('inspectNoChart')}
        </p>
      )}
      {count > 0 && (
        <div className="inspect-scrub">
          <label>
            {t('inspectSnapshot')}{' '}
            <input
              type="range"
              data-testid="inspect-scrubber"
              min={0}
              max={count - 1}
              value={index}
              onChange={(e) => {
                const i = Number(e.target.value);
                onChoose(i >= count - 1 ? null : (snapshots[i]?.seq ?? null));
              }}
            />
          </label>
          <span data-testid="inspect-snapshot-label">
            {' '}
            {index + 1} / {count}
            {following ? ` (${t('inspectLatest')})` : ''}
          </span>
          {!following && (
            <button data-testid="inspect-follow" onClick={() => onChoose(null)}>
              {t('inspectFollow')}
            </button>
          )}
        </div>
      )}
      {snapshot && (
        <dl
          className="inspect-snapshot"
          data-testid="inspect-snapshot"
          data-value={dottedValue(snapshot.value)}
          data-status={snapshot.status ?? ''}
        >
          <dt>{t('inspectStatus')}</dt>
          <dd data-testid="inspect-status">
            <code>{snapshot.status ?? '—'}</code> · {clock(snapshot.at)}
            {snapshot.eventType ? (
              <>
                {' '}
                · {t('inspectAfter')} <code>{snapshot.eventType}</code>
              </>
            ) : null}
          </dd>
          {snapshot.value !== undefined && (
            <>
              <dt>{t('inspectValue')}</dt>
              <dd>
                <code data-testid="inspect-value">{typeof snapshot.value === 'string' ? snapshot.value : shown(snapshot.value)}</code>
              </dd>
            </>
          )}
          {snapshot.output !== undefined && (
            <>
              <dt>{t('inspectOutput')}</dt>
              <dd>
                <pre data-testid="inspect-output">{shown(snapshot.output)}</pre>
              </dd>
            </>
          )}
          <dt>{t('inspectContext')}</dt>
          <dd>
            <pre data-testid="inspect-context">{shown(snapshot.context)}</pre>
          </dd>
        </dl>
      )}
    </section>
  );
}
