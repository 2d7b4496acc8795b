import { useState } from 'react';
import type { Trace } from '../../sim/trace';
import { useT } from '../i18n/i18n';
import { parseAnyTraceText } from '../../sim/itf/read';
import { traceStateProblem } from '../lab/trace-check';

/** Opens a trace file (loopscope sim --json, a counterexample, a real run; loopscope's JSON or ITF) from disk. */
export function TraceLoader({ onTrace }: { onTrace(trace: Trace, fileName: string): void }) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  return (
    <label className="trace-loader">
      {t('loadTrace')}{' '}
      <input
        data-testid="trace-file"
        type="file"
        accept=".json,application/json"
        onChange={async (e) => {
          const file = e.target.files?.[0];
          if (!file) return;
          const result = parseAnyTraceText(await file.text());
          const problem = result.ok ? traceStateProblem(result.trace) : result.error;
          if (result.ok && problem === null) {
            setError(null);
            onTrace(result.trace, file.name);
          } else setError(`${t('traceBad')}: ${problem} (${file.name})`);
          e.target.value = '';
        }}
      />
      {error && (
        <span className="trace-error" data-testid="trace-error">
          {error}
        </span>
      )}
    </label>
  );
}
