import { useLanguage, useT } from '../../i18n/i18n';
import type { FrameOf } from '../../../sim/trace';
import type { WorldViewProps } from '../types';
import '../worlds.css';
import './puppet.css';
import { BADGE_TEXT, badgeOf, reportStatusText } from './puppetView';

/** The last report as `puppet agent --detailed-exitcodes` and the report's resource statuses show it. */
export function PuppetWorldView({ frame }: WorldViewProps<FrameOf<'puppet'>>) {
  const t = useT();
  const lang = useLanguage();
  const world = frame.world;
  const last = world.last;
  return (
    <section className="world puppet-world" data-testid="world">
      <dl className="facts">
        <dt>{t('lastRun')}</dt>
        <dd data-testid="puppet-last" data-status={last?.status ?? ''} data-exit={last?.exitCode ?? ''}>
          {last ? (
            <>
              <b className={`report-${last.status}`}>
                {lang === 'pt-BR' ? 'execução' : 'run'} {last.run}: {reportStatusText(last.status, lang)}
              </b>{' '}
              · {t('exitCode')} {last.exitCode}
              {last.noop ? ' · noop' : ''}
            </>
          ) : (
            <span className="muted">{t('noReportYet')}</span>
          )}
        </dd>
        <dt>{t('agentChanges')}</dt>
        <dd>{world.agentChanges}</dd>
        <dt>{t('driftsSeries')}</dt>
        <dd>{world.drifts}</dd>
      </dl>
      <h4>{t('puppetResources')}</h4>
      <table className="puppet-resources" data-testid="puppet-resources">
        <tbody>
          {world.resources.map((r) => {
            const badge = badgeOf(r);
            return (
              <tr key={r.ref} data-testid="puppet-resource" data-ref={r.ref} data-badge={badge}>
                <td>
                  <code>{r.ref}</code>
                </td>
                <td>
                  <span className={`badge badge-${badge}`}>{t(BADGE_TEXT[badge])}</span>
                  {r.restarted ? ' ↻' : ''}
                </td>
                <td className="message" lang="en">
                  {r.message}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
