import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plotBoxIn, samePlotBox, xOfTime } from '../../web/compare/plotBox';
import { propertyRuns } from '../property-runs';

const box = { left: 40, top: 10, width: 500, height: 200 };

describe("side by side: the divergence marks over a pane's chart (web/compare/plotBox.ts)", () => {
  it("places a moment on the shared axis: its ends at the plot's edges, the middle in the middle, outside it nowhere", () => {
    const axis = [0, 40 * 60_000] as const;
    expect(xOfTime(0, axis, box)).toBe(40);
    expect(xOfTime(40 * 60_000, axis, box)).toBe(540);
    expect(xOfTime(20 * 60_000, axis, box)).toBe(290);
    expect(xOfTime(-1, axis, box)).toBeNull();
    expect(xOfTime(40 * 60_000 + 1, axis, box)).toBeNull();
    // An empty axis (a scenario of no duration) places nothing rather than dividing by zero.
    expect(xOfTime(0, [0, 0], box)).toBeNull();
  });

  it('later moments are never left of earlier ones, and every moment on the axis is inside the plot', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 * 3_600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (duration, a, b) => {
          const [early, late] = [Math.min(a, b) * duration, Math.max(a, b) * duration];
          const x1 = xOfTime(early, [0, duration], box)!;
          const x2 = xOfTime(late, [0, duration], box)!;
          expect(x1).toBeLessThanOrEqual(x2);
          for (const x of [x1, x2]) {
            expect(x).toBeGreaterThanOrEqual(box.left);
            expect(x).toBeLessThanOrEqual(box.left + box.width);
          }
        },
      ),
      { numRuns: propertyRuns() },
    );
  });

  it("measures the plot relative to the marks' holder, and calls two boxes the same when they agree to the pixel", () => {
    expect(plotBoxIn({ left: 140, top: 310, width: 500, height: 200 }, { left: 100, top: 300 })).toEqual(box);
    expect(samePlotBox(null, box)).toBe(false);
    expect(samePlotBox(box, { ...box, left: 40.2 })).toBe(true);
    expect(samePlotBox(box, { ...box, height: 230 })).toBe(false);
  });
});
