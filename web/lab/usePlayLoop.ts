import { useEffect, useRef } from 'react';
/** What can be played: a lab session, or the side-by-side panes held at one time (web/compare). */
export interface Playable {
  readonly time: number;
  readonly finished: boolean;
  advanceTo(t: number): void;
}

/** Plays virtual time at `speed`× wall time, one requestAnimationFrame at a time. */
export function usePlayLoop(session: Playable, playing: boolean, speed: number, onFinished: () => void): void {
  const onEnd = useRef(onFinished);
  onEnd.current = onFinished;
  useEffect(() => {
    if (!playing) return;
    let last: number | null = null;
    let handle = requestAnimationFrame(function tick(now) {
      // Cap a long pause (a background tab) at 100 ms so time does not leap.
      const wall = last === null ? 0 : Math.min(100, now - last);
      last = now;
      session.advanceTo(session.time + wall * speed);
      if (session.finished) {
        onEnd.current();
        return;
      }
      handle = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(handle);
  }, [session, playing, speed]);
}
