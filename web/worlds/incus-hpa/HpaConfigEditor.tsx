import { useState } from 'react';
import { useT } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';
import { configToYaml, parseConfigEdit } from './configEdit';

/** The desired state as hpa.yaml: an invalid edit shows its errors and changes nothing. */
export function HpaConfigEditor({ session }: WorldViewProps) {
  const t = useT();
  const running = session.runnerOf('incus-hpa')!.config;
  const [text, setText] = useState(() => configToYaml(running));
  const [errors, setErrors] = useState<string[]>([]);
  const [applied, setApplied] = useState(false);
  const apply = () => {
    const result = parseConfigEdit(text, session.runnerOf('incus-hpa')!.config);
    if (!result.ok) { setErrors(result.errors); setApplied(false); return; }
    setErrors([]);
    session.update(result.change);
    setApplied(true);
  };
  return (
    <section className="editor" data-testid="config-editor">
      <h3>{t('desiredState')}</h3>
      <textarea data-testid="config-text" value={text} rows={7} spellCheck={false}
        onChange={(e) => { setText(e.target.value); setApplied(false); }} aria-invalid={errors.length > 0} />
      <div className="editor-actions">
        <button data-testid="config-apply" onClick={apply}>{t('apply')}</button>
        {applied && <span className="ok" data-testid="config-applied">{t('applied')}</span>}
      </div>
      {errors.length > 0 && <ul className="errors" data-testid="config-error">{errors.map((e) => <li key={e}>{e}</li>)}</ul>}
    </section>
  );
}
