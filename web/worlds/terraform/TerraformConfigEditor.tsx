import { useState } from 'react';
import type { TerraformLoopConfig } from '../../../sim/loops/terraform';
import { useLanguage } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';
import { parseResourcesEdit, resourcesToYaml } from './configEdit';
import { TF_TEXT } from './messages';

/** The configuration (the scenario's `resources:`), edited live: an invalid edit lists its errors and
 * changes nothing; a valid one is a CONFIG.UPDATE the next run plans against. */
export function TerraformConfigEditor({ session }: WorldViewProps) {
  const text = TF_TEXT[useLanguage()];
  const [source, setSource] = useState(() => resourcesToYaml(session.runnerOf('terraform')!.config.resources));
  const [errors, setErrors] = useState<string[]>([]);
  const [applied, setApplied] = useState(false);
  const apply = () => {
    const result = parseResourcesEdit(source);
    if (!result.ok) { setErrors(result.errors); setApplied(false); return; }
    setErrors([]);
    session.update({ resources: result.resources } satisfies Partial<TerraformLoopConfig>);
    setApplied(true);
  };
  return (
    <section className="editor" data-testid="config-editor">
      <h3>{text.editor}</h3>
      <textarea data-testid="config-text" value={source} rows={10} spellCheck={false} lang="en"
        onChange={(e) => { setSource(e.target.value); setApplied(false); }} aria-invalid={errors.length > 0} />
      <div className="editor-actions">
        <button data-testid="config-apply" onClick={apply}>{text.apply}</button>
        {applied && <span className="ok" data-testid="config-applied">{text.applied}</span>}
      </div>
      {errors.length > 0 && <ul className="errors" data-testid="config-error">{errors.map((e) => <li key={e}>{e}</li>)}</ul>}
    </section>
  );
}
