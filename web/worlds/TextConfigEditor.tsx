import { useState } from 'react';

interface TextConfigEditorProps {
  title: string;
  /** The word shown once an edit is applied ("applied", "daemon-reload done" …). */
  appliedLabel: string;
  applyLabel: string;
  rows: number;
  /** The text of the config the run has now (read once, when the editor opens). */
  initialText: () => string;
  /** Applies the text if it is valid; returns its errors (none: applied). */
  submit: (text: string) => readonly string[];
  lang?: string;
}

/**
 * A loop's desired state as text, edited live: an invalid edit lists its errors and changes
 * nothing; a valid one is handed to the run. The HPA's hpa.yaml, systemd's unit file and
 * Terraform's resources share this panel and differ only in how their text is read.
 */
export function TextConfigEditor({ title, appliedLabel, applyLabel, rows, initialText, submit, lang }: TextConfigEditorProps) {
  const [text, setText] = useState(initialText);
  const [errors, setErrors] = useState<readonly string[]>([]);
  const [applied, setApplied] = useState(false);
  const apply = () => {
    const found = submit(text);
    setErrors(found);
    setApplied(found.length === 0);
  };
  return (
    <section className="editor" data-testid="config-editor">
      <h3>{title}</h3>
      <textarea
        data-testid="config-text"
        value={text}
        rows={rows}
        spellCheck={false}
        lang={lang}
        onChange={(e) => {
          setText(e.target.value);
          setApplied(false);
        }}
        aria-invalid={errors.length > 0}
      />
      <div className="editor-actions">
        <button data-testid="config-apply" onClick={apply}>
          {applyLabel}
        </button>
        {applied && (
          <span className="ok" data-testid="config-applied">
            {appliedLabel}
          </span>
        )}
      </div>
      {errors.length > 0 && (
        <ul className="errors" data-testid="config-error">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
