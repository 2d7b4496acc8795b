// The chart after a rewind and fork: run the Incus HPA scenario to 5:00, scrub back to
// 0:45, kill a pod there (the run forks: the later frames are discarded) — the chart then plots the
// forked run only: as many points as the forked run has frames, the last at the fork, the time axis
// ending there; stepping on extends it with the new history; stepping back at the present (the run
// itself rewinds) and intervening again forks again, and the chart follows. Read from the chart element's
// data-points / data-last-t / data-x-max, which FrameChart sets from the uPlot instance's own data and
// x scale after each setData (what the lines and the time axis show).
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import { ROOT, useLabPage, withChromium } from './harness';

withChromium.describe('the chart after a rewind and fork (chromium)', () => {
  const lab = useLabPage();

  it('plots only the forked run: no point of the abandoned future', async () => {
    const { page } = lab;
    page.setDefaultTimeout(60_000);
    const { runner } = runnerFor(join(ROOT, 'scenarios/talk-lab.yaml'));
    runner.run(300_000);
    const whole = runner.frames.length;
    const index = runner.frames.findIndex((f) => f.t >= 45_000);
    const forkT = runner.frames[index]!.t / 1000;

    await page.goto(`${lab.base}?scenario=talk-lab&t=300000`, { timeout: 170_000 });
    await page.getByTestId('lab').waitFor({ timeout: 170_000 });
    const chart = page.getByTestId('chart');
    const plotted = async () => ({
      points: Number(await chart.getAttribute('data-points')),
      lastT: Number(await chart.getAttribute('data-last-t')),
      xMax: Number(await chart.getAttribute('data-x-max')),
    });
    const until = (points: number) =>
      page.waitForFunction((n) => document.querySelector('[data-testid="chart"]')?.getAttribute('data-points') === String(n), points);

    await until(whole);
    const before = await plotted();
    expect(before.lastT).toBe(runner.frames.at(-1)!.t / 1000);
    expect(before.xMax).toBeGreaterThan(290);

    // Scrubbed back, nothing forked yet: the whole run stays plotted (the marker moves).
    await page.getByTestId('scrubber').fill(String(index));
    expect(await page.getByTestId('viewing-past').count()).toBe(1);
    expect((await plotted()).points).toBe(whole);

    // An intervention there forks: the frames up to the one on screen, plus the kill.
    await page.getByTestId('fault-kill').click();
    await page.getByTestId('fork-notice').waitFor();
    await until(index + 2);
    const forked = await plotted();
    expect(forked.lastT).toBe(forkT);
    expect(forked.xMax).toBeLessThanOrEqual(forkT);

    // Stepping on plots the new history only, point for point with the run's frames.
    for (let i = 0; i < 4; i++) await page.getByTestId('btn-step').click();
    const count = Number((await page.getByTestId('frame-index').innerText()).split('/')[1]);
    expect(count).toBeGreaterThan(index + 2);
    await until(count);
    const on = await plotted();
    expect(on.lastT).toBeLessThan(forkT + 60);
    expect(on.xMax).toBeLessThan(forkT + 60);

    // Step back at the present rewinds the run itself (its later frames are dropped), and the kill
    // from there forks again: the chart follows each time, point for point.
    const frameCount = async () => Number((await page.getByTestId('frame-index').innerText()).split('/')[1]);
    for (let i = 0; i < 2; i++) await page.getByTestId('btn-back').click();
    const rewound = await frameCount();
    expect(rewound).toBeLessThan(count);
    await until(rewound);
    const shownT = Number(await chart.getAttribute('data-last-t'));
    expect(shownT).toBeLessThan(on.lastT);
    await page.getByTestId('fault-kill').click();
    await until(rewound + 1);
    expect(Number(await chart.getAttribute('data-last-t'))).toBeGreaterThanOrEqual(shownT);
    expect(lab.seen.errors).toEqual([]);
  }, 120_000);
});
