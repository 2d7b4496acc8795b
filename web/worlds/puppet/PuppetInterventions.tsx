import { useState } from 'react';
import type { PuppetFault } from '../../../sim/worlds/puppet';
import { useLanguage, useT } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';

/** A hand edit outside Puppet: the `drift` fault on File[path] (a file's title is its absolute path,
 * Puppet's type/file.rb `validate`), checked here so a bad one changes nothing. */
function fileDrift(
  path: string,
  content: string,
  current: string | undefined,
): { ok: true; fault: PuppetFault } | { ok: false; error: string } {
  const p = path.trim();
  if (!/^\/\S*$/.test(p)) return { ok: false, error: `File: expected an absolute path like /etc/motd, got ${JSON.stringify(path)}` };
  if (current === content) return { ok: false, error: `content: expected a change, the file ${p} already has this content` };
  return { ok: true, fault: { kind: 'drift', ref: `File[${p}]`, values: { content } } };
}

/** Drift a file or stop a service by hand; the agent corrects it on its next run. */
export function PuppetInterventions({ session }: WorldViewProps) {
  const t = useT();
  const lang = useLanguage();
  // The summary shortens contents; the live world (interventions only show on a live run) has them.
  const host = session.runnerOf('puppet')!.world.host;
  const files = Object.keys(host.files);
  const running = Object.entries(host.services)
    .filter(([, s]) => s.running)
    .map(([n]) => n);
  const [path, setPath] = useState<string | null>(null);
  const [content, setContent] = useState(lang === 'pt-BR' ? 'editado à mão' : 'edited by hand');
  const [service, setService] = useState('');
  const [error, setError] = useState<string | null>(null);
  const filePath = path ?? files[0] ?? '';
  const serviceName = running.includes(service) ? service : (running[0] ?? '');
  const drift = () => {
    const r = fileDrift(filePath, content, host.files[filePath.trim()]);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setError(null);
    session.inject(r.fault);
  };
  return (
    <section className="interventions" data-testid="interventions">
      <h3>{t('interventions')}</h3>
      <div className="row">
        <input
          data-testid="puppet-drift-path"
          list="puppet-files"
          value={filePath}
          size={24}
          aria-invalid={error !== null}
          onChange={(e) => {
            setPath(e.target.value);
            setError(null);
          }}
        />
        <datalist id="puppet-files">
          {files.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
        <input
          data-testid="puppet-drift-content"
          value={content}
          size={18}
          onChange={(e) => {
            setContent(e.target.value);
            setError(null);
          }}
        />
        <button data-testid="puppet-drift-file" onClick={drift}>
          {t('driftFile')}
        </button>
      </div>
      {error && (
        <ul className="errors" data-testid="puppet-drift-error">
          <li>{error}</li>
        </ul>
      )}
      <div className="row">
        <select data-testid="puppet-service" value={serviceName} onChange={(e) => setService(e.target.value)}>
          {running.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button
          data-testid="puppet-stop-service"
          disabled={!serviceName}
          onClick={() =>
            session.inject({ kind: 'drift', ref: `Service[${serviceName}]`, values: { ensure: 'stopped' } } satisfies PuppetFault)
          }
        >
          {t('stopService')}
        </button>
      </div>
    </section>
  );
}
