import type uPlot from 'uplot';
import type { LabSession } from '../lab/session';

/** A uPlot draw hook marking the frame on screen (seconds on the x axis) with a vertical line. */
export function frameMarkerHook(at: () => number): (u: uPlot) => void {
  return (u) => {
    const x = u.valToPos(at(), 'x', true);
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = '#8250df';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
    ctx.restore();
  };
}

/** Clicking the chart travels to that moment (the same as the scrubber). */
export function seekOnClick(u: uPlot, session: LabSession): void {
  u.over.addEventListener('click', () => {
    const left = u.cursor.left;
    if (left === undefined || left < 0) return;
    const at = u.posToVal(left, 'x') * 1000;
    const frames = session.frames;
    let i = 0;
    while (i < frames.length - 1 && frames[i + 1]!.t <= at) i++;
    session.seek(i);
  });
}
