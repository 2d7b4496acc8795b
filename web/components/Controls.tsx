import { useT } from '../i18n/i18n';
import { PauseIcon } from './icons';
import { SPEEDS } from '../lab/format';

export interface ControlsProps {
  playing: boolean;
  speed: number;
  canStepBack: boolean;
  onTogglePlay(): void;
  onStep(): void;
  onStepBack(): void;
  onReset(): void;
  onSpeed(speed: number): void;
}

/** Play/pause, step to the next phase, step back, reset and speed (keys: see useShortcuts). */
export function Controls(p: ControlsProps) {
  const t = useT();
  return (
    <div className="controls" role="toolbar">
      <button data-testid="btn-back" onClick={p.onStepBack} disabled={!p.canStepBack} title={`${t('stepBack')} (←)`}>
        ← {t('stepBack')}
      </button>
      <button data-testid="btn-play" onClick={p.onTogglePlay} title={`${p.playing ? t('pause') : t('play')} (space)`}>
        {p.playing ? (
          <>
            <PauseIcon /> {t('pause')}
          </>
        ) : (
          `▶ ${t('play')}`
        )}
      </button>
      <button data-testid="btn-step" onClick={p.onStep} title={`${t('step')} (→)`}>
        {t('step')} →
      </button>
      <button data-testid="btn-reset" onClick={p.onReset}>
        ↺ {t('reset')}
      </button>
      <label className="speed">
        {t('speed')}{' '}
        <select data-testid="speed" value={p.speed} onChange={(e) => p.onSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
