import { useState } from 'react';
import type { SystemdConfig } from '../../../sim/loops/systemd-restart';
import { useT } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';
import { parseUnitEdit, unitToText } from './unitEdit';

/** The unit file's restart keys: an invalid edit shows its errors and changes nothing; a valid one is
 * a daemon-reload (the binding's CONFIG.UPDATE, as a timeline `unit:` entry). */
export function UnitEditor({ session }: WorldViewProps) {
  const t = useT();
  const running = () => session.runnerOf('systemd-restart')!.config.unit;
  const [text, setText] = useState(() => unitToText(running()));
  const [errors, setErrors] = useState<string[]>([]);
  const [applied, setApplied] = useState(false);
  const apply = () => {
    const result = parseUnitEdit(text, running());
    if (!result.ok) { setErrors(result.errors); setApplied(false); return; }
    setErrors([]);
    session.update({ unit: result.unit } satisfies Partial<SystemdConfig>);
    setApplied(true);
  };
  return (
    <section className="editor" data-testid="config-editor">
      <h3>{t('unitFileEditor')}</h3>
      <textarea data-testid="config-text" value={text} rows={8} spellCheck={false}
        onChange={(e) => { setText(e.target.value); setApplied(false); }} aria-invalid={errors.length > 0} />
      <div className="editor-actions">
        <button data-testid="config-apply" onClick={apply}>{t('apply')}</button>
        {applied && <span className="ok" data-testid="config-applied">{t('unitReloaded')}</span>}
      </div>
      {errors.length > 0 && <ul className="errors" data-testid="config-error">{errors.map((e) => <li key={e}>{e}</li>)}</ul>}
    </section>
  );
}
