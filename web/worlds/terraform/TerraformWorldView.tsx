import { useLanguage, useT } from '../../i18n/i18n';
import { LockIcon } from '../../components/icons';
import { clock } from '../../lab/format';
import type { FrameOf } from '../../../sim/trace';
import type { WorldViewProps } from '../types';
import '../worlds.css';
import './terraform.css';
import { attrChange, SYMBOL_CLASS } from './terraformView';

/** The last run's plan as `terraform plan` renders it, with the backend's lock and serial. */
export function TerraformWorldView({ frame }: WorldViewProps<FrameOf<'terraform'>>) {
  const t = useT();
  const lang = useLanguage();
  const world = frame.world;
  return (
    <section className="world terraform-world" data-testid="world">
      <dl className="facts">
        <dt>{t('stateLock')}</dt>
        <dd data-testid="terraform-lock" data-holder={world.lockHolder ?? ''}>
          {world.lock ? (
            <>
              <b className="terraform-locked">
                <LockIcon /> {world.lock.who}
              </b>{' '}
              · {world.lock.operation} · ID {world.lock.id.slice(0, 8)}… · {clock(world.lock.since)}
            </>
          ) : (
            <span className="muted">{t('unlocked')}</span>
          )}
        </dd>
        <dt>{t('stateSerial')}</dt>
        <dd data-testid="terraform-serial">{world.serial}</dd>
        <dt>{t('cloudCalls')}</dt>
        <dd>
          {world.calls}
          {world.unmanaged ? ` · ${world.unmanaged} unmanaged` : ''}
        </dd>
        <dt>{t('dataLost')}</dt>
        <dd className={world.dataLostGb > 0 ? 'down' : ''}>{world.dataLostGb}</dd>
      </dl>
      <h4>
        {t('terraformPlan')}
        {world.plan ? ` · ${lang === 'pt-BR' ? 'execução' : 'run'} ${world.plan.run}` : ''}
      </h4>
      {world.plan ? (
        <pre className="terraform-plan" data-testid="terraform-plan">
          {world.plan.changes.map((c) => (
            <div
              key={c.address}
              className={`terraform-change ${SYMBOL_CLASS[c.symbol]}`}
              data-testid="terraform-change"
              data-address={c.address}
              data-symbol={c.symbol}
              data-status={c.status}
            >
              <span className="terraform-symbol">{c.symbol.padStart(3)}</span> {c.address}{' '}
              <span className={`terraform-status terraform-${c.status}`}>({t(c.status === 'failed' ? 'failedStatus' : c.status)})</span>
              {c.attrs.map((a) => (
                <div key={a.name} className="terraform-attr">
                  {'      '}
                  {a.name} = {attrChange(a.before, a.after)}
                </div>
              ))}
            </div>
          ))}
        </pre>
      ) : (
        <p className="muted" data-testid="terraform-plan">
          {t('noPlanYet')}
        </p>
      )}
    </section>
  );
}
