import { useState } from 'react';
import type { HpaFault } from '../../sim/worlds/incus-hpa';
import { useLanguage, useT } from '../i18n/i18n';
import type { CompareSession } from './CompareSession';
import { COMPARE_TEXT } from './messages';

const STRESS_BYTES = 900 * 1000 ** 2; // as IncusHpaInterventions: stress-ng --vm-bytes 900M

/**
 * The Incus HPA's interventions, applied to every pane at the shared time (the same world event in each run,
 * so the policies still differ only by their decisions). A pod can be picked when every run has it.
 */
export function CompareInterventions({ compare }: { compare: CompareSession }) {
  const t = useT();
  const text = COMPARE_TEXT[useLanguage()];
  const alive = compare.panes.map(
    (p) =>
      new Set(
        (p.framesOf('incus-hpa')?.[p.index]?.world.pods ?? [])
          .filter((x) => x.status === 'Running' || x.status === 'Starting')
          .map((x) => x.name),
      ),
  );
  const names = [...(alive[0] ?? [])].filter((n) => alive.every((s) => s.has(n))).sort();
  const [picked, setPicked] = useState('');
  const target = names.includes(picked) ? picked : (names[0] ?? '');
  const inject = (fault: HpaFault) => compare.injectAll(fault);
  return (
    <span className="compare-interventions" role="group" aria-label={text.toAll} title={text.toAll}>
      <span className="muted">{text.toAll}:</span>
      <select data-testid="compare-fault-pod" value={target} onChange={(e) => setPicked(e.target.value)}>
        {names.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <button data-testid="compare-fault-kill" disabled={!target} onClick={() => inject({ kind: 'kill', instance: target })}>
        {t('kill')}
      </button>
      <button
        data-testid="compare-fault-stress"
        disabled={!target}
        onClick={() => inject({ kind: 'stress', instance: target, bytes: STRESS_BYTES })}
      >
        {t('stress')}
      </button>
      <button data-testid="compare-fault-fail-api" onClick={() => inject({ kind: 'failApi', calls: 3 })} title={t('failApi')}>
        API ✗
      </button>
    </span>
  );
}
