import { useT } from '../i18n/i18n';
import type { InspectedActor, InspectLog } from './inspect-log';

/** The actors as a tree by parent: each one's name, session id and latest status; a click selects it. */
export function ActorTree({
  log,
  selected,
  onSelect,
}: {
  log: InspectLog;
  selected: string | undefined;
  onSelect(sessionId: string): void;
}) {
  const t = useT();
  const tree = log.tree();
  const roots = tree.get(undefined) ?? [];
  if (roots.length === 0)
    return (
      <p className="inspect-muted" data-testid="inspect-no-actors">
        {t('inspectNoActors')}
      </p>
    );
  const branch = (actors: InspectedActor[], seen: Set<string>) => (
    <ul className="inspect-tree">
      {actors.map((a) => {
        // A parent cycle (ids reused by a buggy sender) must not recurse for ever.
        const below = seen.has(a.sessionId) ? [] : (tree.get(a.sessionId) ?? []);
        const status = a.snapshots.at(-1)?.status;
        return (
          <li key={a.sessionId}>
            <button
              className={`inspect-actor${a.sessionId === selected ? ' selected' : ''}`}
              data-testid="inspect-actor"
              data-session={a.sessionId}
              data-parent={a.parentId ?? ''}
              data-name={a.name}
              data-status={status ?? ''}
              aria-pressed={a.sessionId === selected}
              onClick={() => onSelect(a.sessionId)}
            >
              <b>{a.name}</b> <code>{a.sessionId}</code>
              {status && status !== 'active' ? <span className="inspect-status"> · {status}</span> : null}
            </button>
            {below.length > 0 && branch(below, new Set([...seen, a.sessionId]))}
          </li>
        );
      })}
    </ul>
  );
  return branch(roots, new Set());
}
