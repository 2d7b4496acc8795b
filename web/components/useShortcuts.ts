import { useEffect, useRef } from 'react';
import { SPEEDS } from '../lab/format';

export interface ShortcutActions {
  togglePlay(): void;
  step(): void;
  stepBack(): void;
  speed: number;
  setSpeed(speed: number): void;
  /** d: the diagram alone · w: whole chart / follow · c: charts / interventions (presenter) · f: full screen. */
  toggleDiagramOnly?(): void;
  toggleChartView?(): void;
  toggleSideTab?(): void;
  fullscreen?(): void;
}

/** Fields where keys are text: they keep every key. */
export function isTextField(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA') return true;
  if (el.tagName !== 'INPUT') return false;
  const type = (el as HTMLInputElement).type; // cast: checked an INPUT above
  return !['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'file', 'color', 'image'].includes(type);
}

/** Controls that Space and Enter press (a button keeps its own keys; only the arrows and + − reach the lab). */
const pressable = (el: Element | null) =>
  el instanceof HTMLElement &&
  (el.tagName === 'BUTTON' ||
    el.tagName === 'A' ||
    el.getAttribute('role') === 'button' ||
    (el.tagName === 'INPUT' && ['button', 'submit', 'reset', 'checkbox', 'radio', 'file'].includes((el as HTMLInputElement).type))); // cast: its tagName is INPUT

/**
 * space play/pause · → step · ← step back · + / − speed · d w c f (see ShortcutActions).
 * They work whatever has focus — a drop-down or the scrubber does not keep the arrows — except in a
 * text field; Space and Enter on a button press that button. Listened for in the capture phase, so a
 * focused <select> never sees an arrow it would turn into another choice.
 */
export function useShortcuts(actions: ShortcutActions): void {
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      if (isTextField(target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if ((e.key === ' ' || e.key === 'Enter') && pressable(target)) return;
      const a = ref.current;
      const at = SPEEDS.findIndex((s) => s === a.speed);
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (key === ' ') a.togglePlay();
      else if (key === 'ArrowRight') a.step();
      else if (key === 'ArrowLeft') a.stepBack();
      else if (key === '+' || key === '=') a.setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, at + 1)]!);
      else if (key === '-' || key === '−') a.setSpeed(SPEEDS[Math.max(0, at - 1)]!);
      else if (key === 'd' && a.toggleDiagramOnly) a.toggleDiagramOnly();
      else if (key === 'w' && a.toggleChartView) a.toggleChartView();
      else if (key === 'c' && a.toggleSideTab) a.toggleSideTab();
      else if (key === 'f' && a.fullscreen) a.fullscreen();
      else return;
      e.preventDefault();
      e.stopPropagation();
    };
    // A drop-down gives the keyboard back once a choice is made: arrows step the run again, not the choice.
    const onChange = (e: Event) => {
      if (e.target instanceof HTMLSelectElement) e.target.blur();
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('change', onChange, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('change', onChange, true);
    };
  }, []);
}
