import { useLanguage, useT } from '../../i18n/i18n';
import { clock } from '../../lab/format';
import { resultText } from '../../i18n/systemd-restart-states';
import type { FrameOf } from '../../../sim/trace';
import type { WorldViewProps } from '../types';
import '../worlds.css';
import { StartLimitBar } from './StartLimitBar';
import { unitView } from './unitView';

/** The unit as `systemctl status` shows it, its restart counter, start-limit window and exits. */
export function SystemdRestartWorldView({ frame }: WorldViewProps<FrameOf<'systemd-restart'>>) {
  const t = useT();
  const lang = useLanguage();
  const world = frame.world;
  const view = unitView(frame);
  const { active, sub } = view.status ?? { active: 'unknown', sub: frame.state };
  const failedResult = view.result && view.result !== 'success' ? ` (Result: ${view.result})` : '';
  return (
    <section className="world systemd-restart-world" data-testid="world">
      <pre className={`unit-status unit-${active}`} data-testid="unit-status" data-active={active} data-sub={sub}>
        <span className="unit-dot">●</span> {view.name ?? 'unit'}
        {'\n'}
        {'     Active: '}
        <b>
          {active} ({sub})
        </b>
        {active === 'failed' ? failedResult : ''}
        {'\n'}
        {'   Main PID: '}
        <span data-testid="main-pid">
          {world.main ? `${world.main.pid}${world.main.hung ? ` (${t('notAnswering')})` : ''}` : t('noMainProcess')}
        </span>
      </pre>
      <dl className="facts">
        <dt>{t('nRestarts')}</dt>
        <dd data-testid="n-restarts">{view.nRestarts ?? <Unknown />}</dd>
        <dt>{t('lastResult')}</dt>
        <dd data-testid="last-result" data-result={view.result ?? ''}>
          {view.result ? resultText(view.result, lang) : '—'}
        </dd>
        <dt>{t('startLimit')}</dt>
        <dd>{view.window ? <StartLimitBar window={view.window} now={frame.t} /> : <Unknown />}</dd>
        <dt>{t('startsSeries')}</dt>
        <dd data-testid="starts">{world.starts}</dd>
      </dl>
      <h4>{t('recentExits')}</h4>
      <ol className="exits" data-testid="exits">
        {world.exits.map((e) => (
          <li key={`${e.at}-${e.pid}`}>
            {clock(e.at)} · PID {e.pid} · {e.how}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Unknown() {
  const t = useT();
  return (
    <span className="muted" title={t('notRecorded')}>
      —
    </span>
  );
}
