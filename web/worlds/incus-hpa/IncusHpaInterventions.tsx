import { memo, useMemo, useState } from 'react';
import type { HpaFault } from '../../../sim/worlds/incus-hpa';
import { useT } from '../../i18n/i18n';
import type { FrameOf } from '../../../sim/trace';
import type { WorldViewProps } from '../types';

const STRESS_BYTES = 900 * 1000 ** 2; // the lab's stress-ng --vm-bytes 900M

/** Faults injected now (sim/worlds/incus-hpa.ts HpaFault); the loop meets them on its next observe. */
export function IncusHpaInterventions({ session, frame }: WorldViewProps<FrameOf<'incus-hpa'>>) {
  const t = useT();
  const key = frame.world.pods
    .filter((p) => p.status === 'Running' || p.status === 'Starting')
    .map((p) => p.name)
    .join(' ');
  const names = useMemo(() => (key ? key.split(' ') : []), [key]);
  const [picked, setPicked] = useState('');
  const target = names.includes(picked) ? picked : (names[0] ?? '');
  const inject = (fault: HpaFault) => session.inject(fault);
  return (
    <section className="interventions" data-testid="interventions">
      <h3>{t('interventions')}</h3>
      <div className="row">
        <select data-testid="fault-pod" value={target} onChange={(e) => setPicked(e.target.value)}>
          <PodOptions names={names} />
        </select>
        <button data-testid="fault-kill" disabled={!target} onClick={() => inject({ kind: 'kill', instance: target })}>
          {t('kill')}
        </button>
        <button
          data-testid="fault-stress"
          disabled={!target}
          onClick={() => inject({ kind: 'stress', instance: target, bytes: STRESS_BYTES })}
        >
          {t('stress')} 900MB
        </button>
        <button data-testid="fault-unstress" disabled={!target} onClick={() => inject({ kind: 'stress', instance: target, bytes: 0 })}>
          {t('unstress')}
        </button>
      </div>
      <div className="row">
        <button data-testid="fault-fail-api" onClick={() => inject({ kind: 'failApi', calls: 3 })}>
          {t('failApi')}
        </button>
        <button data-testid="fault-restart" onClick={() => inject({ kind: 'restartController' })}>
          {t('restartController')}
        </button>
      </div>
    </section>
  );
}

/** The pod list only re-renders when the set of pods changes (not on every frame). */
const PodOptions = memo(function PodOptions({ names }: { names: string[] }) {
  return (
    <>
      {names.map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </>
  );
});
