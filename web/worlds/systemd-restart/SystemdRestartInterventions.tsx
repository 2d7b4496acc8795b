import { useState } from 'react';
import type { SystemctlRequest, SystemctlVerb } from '../../../machines/systemd-restart';
import { KNOWN_SIGNALS } from '../../../machines/systemd-restart';
import type { SystemdFault } from '../../../sim/worlds/systemd-restart';
import { useT } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';

const VERBS: SystemctlVerb[] = ['start', 'stop', 'restart', 'reset-failed'];

/** systemctl verbs: operator commands (SystemdFault `systemctl`), delivered to the machine as SYSTEMCTL.<VERB>. */
export function SystemdRestartInterventions({ session }: WorldViewProps) {
  const t = useT();
  const [signal, setSignal] = useState('SIGTERM');
  const send = (request: SystemctlRequest) => session.inject({ kind: 'systemctl', request } satisfies SystemdFault);
  return (
    <section className="interventions" data-testid="interventions">
      <h3>{t('interventions')}</h3>
      <div className="row">
        {VERBS.map((verb) => (
          <button key={verb} data-testid={`systemctl-${verb}`} onClick={() => send({ verb })}>
            <code>systemctl {verb}</code>
          </button>
        ))}
      </div>
      <div className="row">
        <label>
          {t('signal')}{' '}
          <select data-testid="systemctl-signal" value={signal} onChange={(e) => setSignal(e.target.value)}>
            {KNOWN_SIGNALS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button data-testid="systemctl-kill" onClick={() => send({ verb: 'kill', signal })}>
          <code>systemctl kill --signal={signal}</code>
        </button>
      </div>
    </section>
  );
}
