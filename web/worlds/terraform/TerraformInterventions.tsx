import { useState } from 'react';
import type { TerraformLoopConfig } from '../../../sim/loops/terraform';
import type { TerraformFault } from '../../../sim/worlds/terraform';
import { useLanguage } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';
import { parseDrift } from './configEdit';
import { TF_TEXT } from './messages';

/** Faults from outside, through the runner like every loop's: a change in the console (drift), a
 * create the cloud refuses once, terraform killed mid-apply (a controller restart: the lock stays
 * held, as after a real kill -9), a run by hand, force-unlock. */
export function TerraformInterventions({ session }: WorldViewProps) {
  const text = TF_TEXT[useLanguage()];
  const config = session.runnerOf('terraform')!.config;
  const addresses = config.resources.map((r) => r.address);
  const [picked, setPicked] = useState<string | null>(null);
  const address = picked !== null && addresses.includes(picked) ? picked : (addresses[0] ?? '');
  const resource = config.resources.find((r) => r.address === address);
  const [drift, setDrift] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inject = (fault: TerraformFault) => { setError(null); session.inject(fault); };
  const doDrift = () => {
    const r = parseDrift(drift, resource);
    if (!r.ok) { setError(r.error); return; }
    inject({ kind: 'drift', address, set: r.set });
  };
  return (
    <section className="interventions" data-testid="interventions">
      <h3>{text.interventions}</h3>
      <div className="row">
        <label>{text.resource}{' '}
          <select data-testid="tf-resource" value={address} onChange={(e) => { setPicked(e.target.value); setError(null); }}>
            {addresses.map((a) => <option key={a} value={a}>{a}</option>)}
          </select>
        </label>
        <input data-testid="tf-drift-value" value={drift} placeholder={text.driftHint} size={22} aria-invalid={error !== null}
          onChange={(e) => { setDrift(e.target.value); setError(null); }} />
        <button data-testid="tf-drift" onClick={doDrift}>{text.drift}</button>
        <button data-testid="tf-fail-create" onClick={() => inject({ kind: 'failCreate', address, times: 1, tainted: false })}>{text.failCreate}</button>
      </div>
      {error && <ul className="errors" data-testid="tf-drift-error"><li>{error}</li></ul>}
      <div className="row">
        <button data-testid="tf-crash" onClick={() => inject({ kind: 'crash' })}>{text.crash}</button>
        <button data-testid="tf-run" onClick={() => { setError(null); session.update({ request: 'run' } satisfies Partial<TerraformLoopConfig>); }}>{text.runNow}</button>
        <button data-testid="tf-force-unlock" onClick={() => inject({ kind: 'forceUnlock' })}><code>terraform {text.forceUnlock}</code></button>
      </div>
    </section>
  );
}
