import { useEffect, useRef } from 'react';
import { SPEEDS } from '../lab/format';

export interface ShortcutActions {
  togglePlay(): void;
  step(): void;
  stepBack(): void;
  speed: number;
  setSpeed(speed: number): void;
}

/** space play/pause · → step · ← step back · + / − speed. Ignored while typing in a field. */
export function useShortcuts(actions: ShortcutActions): void {
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const a = ref.current;
      const at = SPEEDS.indexOf(a.speed as (typeof SPEEDS)[number]);
      if (e.key === ' ') a.togglePlay();
      else if (e.key === 'ArrowRight') a.step();
      else if (e.key === 'ArrowLeft') a.stepBack();
      else if (e.key === '+' || e.key === '=') a.setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, at + 1)]!);
      else if (e.key === '-' || e.key === '−') a.setSpeed(SPEEDS[Math.max(0, at - 1)]!);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
