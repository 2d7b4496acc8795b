import { useState } from 'react';
import type { TerraformLoopConfig } from '../../../sim/loops/terraform';
import type { TerraformFault } from '../../../sim/worlds/terraform';
import { useLanguage } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';
import { parseDrift } from './configEdit';
import { TERRAFORM_TEXT } from './messages';

/** Faults from outside, through the runner like every loop's: a change in the console (drift), a
 * create the cloud refuses once, terraform killed mid-apply (a controller restart: the lock stays
 * held, as after a real kill -9), a run by hand, force-unlock. */
export function TerraformInterventions({ session }: WorldViewProps) {
  const text = TERRAFORM_TEXT[useLanguage()];
  const config = session.runnerOf('terraform')!.config;
  const addresses = config.resources.map((r) => r.address);
  const [picked, setPicked] = useState<string | null>(null);
  const address = picked !== null && addresses.includes(picked) ? picked : (addresses[0] ?? '');
  const resource = config.resources.find((r) => r.address === address);
  const [drift, setDrift] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inject = (fault: TerraformFault) => {
    setError(null);
    session.inject(fault);
  };
  const doDrift = () => {
    const r = parseDrift(drift, resource);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    inject({ kind: 'drift', address, set: r.set });
  };
  return (
    <section className="interventions" data-testid="interventions">
      <h3>{text.interventions}</h3>
      <div className="row">
        <label>
          {text.resource}{' '}
          <select
            data-testid="terraform-resource"
            value={address}
            onChange={(e) => {
              setPicked(e.target.value);
              setError(null);
            }}
          >
            {addresses.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <input
          data-testid="terraform-drift-value"
          value={drift}
          placeholder={text.driftHint}
          size={22}
          aria-invalid={error !== null}
          onChange={(e) => {
            setDrift(e.target.value);
            setError(null);
          }}
        />
        <button data-testid="terraform-drift" onClick={doDrift}>
          {text.drift}
        </button>
        <button data-testid="terraform-fail-create" onClick={() => inject({ kind: 'failCreate', address, times: 1, tainted: false })}>
          {text.failCreate}
        </button>
      </div>
      {error && (
        <ul className="errors" data-testid="terraform-drift-error">
          <li>{error}</li>
        </ul>
      )}
      <div className="row">
        <button data-testid="terraform-crash" onClick={() => inject({ kind: 'crash' })}>
          {text.crash}
        </button>
        <button
          data-testid="terraform-run"
          onClick={() => {
            setError(null);
            session.update({ request: 'run' } satisfies Partial<TerraformLoopConfig>);
          }}
        >
          {text.runNow}
        </button>
        <button data-testid="terraform-force-unlock" onClick={() => inject({ kind: 'forceUnlock' })}>
          <code>terraform {text.forceUnlock}</code>
        </button>
      </div>
    </section>
  );
}
