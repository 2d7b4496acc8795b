import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { clock as clockOf } from '../../web/lab/format';
import { ROOT, useLabPage, withChromium } from './harness';

interface PaneState {
  policy: string;
  time: number;
  frameT: number;
  decided: string;
  differs: boolean;
}
const panes = (page: Page) =>
  page.$$eval('[data-testid="compare-pane"]', (els) =>
    els.map((e) => ({
      policy: e.getAttribute('data-policy')!,
      time: Number(e.getAttribute('data-time')),
      frameT: Number(e.getAttribute('data-frame-t')),
      decided: e.getAttribute('data-decided')!,
      differs: e.getAttribute('data-differs') === 'true',
    })),
  ) as Promise<PaneState[]>;

/** Each pane's chart as drawn: its box, its plot's last point and axis end (FrameChart's attributes), its divergence marks. */
interface PaneChartState {
  time: number;
  paneBottom: number;
  chart: { top: number; bottom: number; left: number; right: number; height: number };
  chartsBottom: number;
  points: number;
  lastT: number;
  xMax: number;
  /** x: the mark's place across the plot, 0 at its left edge to 1 at its right. */
  marks: { t: number; kind: string; x: number; inside: boolean }[];
}
const paneCharts = (page: Page): Promise<PaneChartState[]> =>
  page.$$eval('[data-testid="compare-pane"]', (els) =>
    els.map((pane): PaneChartState => {
      const chart = pane.querySelector('[data-testid="chart"]')!;
      const plot = chart.querySelector('.u-over')!.getBoundingClientRect();
      const c = chart.getBoundingClientRect();
      return {
        time: Number(pane.getAttribute('data-time')),
        paneBottom: pane.getBoundingClientRect().bottom,
        chart: { top: c.top, bottom: c.bottom, left: c.left, right: c.right, height: c.height },
        chartsBottom: pane.querySelector('[data-testid="charts"]')!.getBoundingClientRect().bottom,
        points: Number(chart.getAttribute('data-points')),
        lastT: Number(chart.getAttribute('data-last-t')) * 1000,
        xMax: Number(chart.getAttribute('data-x-max')) * 1000,
        marks: [...pane.querySelectorAll('[data-testid="chart-divergence"]')].map((m) => {
          const r = m.getBoundingClientRect();
          const x = (r.left + r.right) / 2;
          return {
            t: Number(m.getAttribute('data-t')),
            kind: m.getAttribute('data-kind')!,
            x: (x - plot.left) / plot.width,
            inside: x >= plot.left && x <= plot.right && r.top >= plot.top - 1 && r.bottom <= plot.bottom + 1,
          };
        }),
      };
    }),
  );

/** The page fits the window: no scrolling either way, and nothing of a pane's chart cut off by its pane. */
async function expectFits(page: Page, width: number, height: number): Promise<void> {
  expect(await page.evaluate(() => [document.scrollingElement!.scrollWidth, document.scrollingElement!.scrollHeight])).toEqual([
    width,
    height,
  ]);
  for (const p of await paneCharts(page)) {
    expect(p.paneBottom).toBeLessThanOrEqual(height);
    expect(p.chartsBottom).toBeLessThanOrEqual(p.paneBottom);
    expect(p.chart.right).toBeLessThanOrEqual(width);
  }
}

withChromium.describe('side by side: one scenario and seed under two or three policies, in step (chromium)', () => {
  const lab = useLabPage();
  const compareTime = () => lab.page.getByTestId('compare-time').textContent();

  it("opens at the link's t (ms or a duration, read as the rest of the lab reads it) or where the lab was; a t it cannot read is named", async () => {
    const page = lab.page;
    await page.setViewportSize({ width: 1280, height: 720 });
    for (const [t, shown, ms] of [
      ['60500', '1:00', 60_500],
      ['1m0.5s', '1:00', 60_500],
      ['12m30s', '12:30', 750_000],
    ] as const) {
      // The first visit waits for the dev server's first build.
      await page.goto(`${lab.base}?loop=incus-hpa&scenario=flapping&compare=seed,kubernetes&t=${t}`, { timeout: 120_000 });
      await page.getByTestId('compare').waitFor();
      expect(await compareTime(), `t=${t}`).toBe(shown);
      const ps = await panes(page);
      expect(
        ps.map((p) => p.time),
        `t=${t}`,
      ).toEqual([ms, ms]);
      for (const p of ps) expect(p.frameT).toBeLessThanOrEqual(ms);
      expect(await page.getByTestId('url-problems').count()).toBe(0);
    }

    // From the lab: stepped (not linked) to 1:00, the button opens side by side there.
    await page.goto(`${lab.base}?loop=incus-hpa&scenario=flapping&t=45000`);
    await page.getByTestId('lab').waitFor();
    const labTime = () => page.getByTestId('time').textContent();
    for (let k = 0; k < 20 && (await labTime()) !== '1:00'; k++) await page.getByTestId('btn-step').click();
    expect(await labTime()).toBe('1:00');
    await page.getByTestId('side-by-side').click();
    await page.getByTestId('compare').waitFor();
    expect(await compareTime()).toBe('1:00');
    expect(new Set((await panes(page)).map((p) => clockOf(p.time)))).toEqual(new Set(['1:00']));

    await page.goto(`${lab.base}?loop=incus-hpa&scenario=flapping&compare=seed,kubernetes&t=nonsense`);
    await page.getByTestId('compare').waitFor();
    expect(await page.getByTestId('url-problems').textContent()).toContain('t=nonsense: expected a time');
    expect(await compareTime()).toBe('0:00');
  }, 180_000);

  it("at 1280×720 and 1920×1080 each pane's chart fills the space below its world, drawn up to now on one time axis, with the divergence marks on it", async () => {
    const page = lab.page;
    const sizes = [
      [1280, 720, ''],
      [1280, 720, '&presenter=1'],
      [1920, 1080, '&presenter=1'],
    ] as const;
    for (const [width, height, mode] of sizes) {
      const columns = width > 1280 ? 'seed,kubernetes,fixed' : 'seed,kubernetes';
      await page.setViewportSize({ width, height });
      await page.goto(`${lab.base}?loop=incus-hpa&scenario=flapping&compare=${columns}&t=12m30s${mode}`);
      await page.locator('[data-testid="divergence-list"][data-ready="true"]').waitFor();
      const track = await page.$$eval('[data-testid="divergence"]', (els) => els.map((e) => Number(e.getAttribute('data-t'))));
      expect(track.length).toBeGreaterThan(2);
      // Drawn: every pane's chart has its points up to the shared time (the last frame within one 15 s period of it).
      await page.waitForFunction((n) => {
        const charts = [...document.querySelectorAll('[data-testid="compare-pane"] [data-testid="chart"]')];
        return (
          charts.length === n &&
          charts.every((c) => Number(c.getAttribute('data-last-t')) * 1000 > 750_000 - 15_000) &&
          [...document.querySelectorAll('[data-testid="compare-pane"]')].every(
            (p) => p.querySelectorAll('[data-testid="chart-divergence"]').length > 0,
          )
        );
      }, columns.split(',').length);
      const charts = await paneCharts(page);
      const where = `${width}×${height}${mode}`;
      for (const c of charts) {
        expect(c.time, where).toBe(750_000);
        expect(c.points, where).toBeGreaterThan(10);
        expect(c.lastT, where).toBeLessThanOrEqual(750_000);
        // One time axis: the scenario's whole 40 minutes in every pane.
        expect(c.xMax, where).toBe(40 * 60_000);
        // The chart is the pane's lower part, down to the window's lower edge: no empty lower half.
        expect(c.chart.height, where).toBeGreaterThan(height * 0.25);
        expect(c.chart.bottom, where).toBeGreaterThan(height * 0.85);
        // The divergence marks: the timeline's, each over the plot, at the same x in every pane.
        expect(
          c.marks.map((m) => m.t),
          where,
        ).toEqual(track);
        for (const m of c.marks) expect(m.inside, `${where} mark at ${m.t}`).toBe(true);
        charts[0]!.marks.forEach((m, i) => expect(Math.abs(c.marks[i]!.x - m.x), `${where} mark at ${m.t}`).toBeLessThan(0.005));
        for (const m of c.marks) expect(Math.abs(m.x - m.t / (40 * 60_000)), `${where} mark at ${m.t}`).toBeLessThan(0.01);
      }
      await expectFits(page, width, height);
      await page.screenshot({ path: join(ROOT, `test-results/compare-charts-${width}${mode ? '-presenter' : ''}.png`) });
    }
    // A mark on a chart goes there, in every pane.
    const mark = page
      .locator('[data-testid="compare-pane"]')
      .nth(1)
      .locator('[data-testid="chart-divergence"][data-kind="diverge"]')
      .first();
    const at = Number(await mark.getAttribute('data-t'));
    await mark.click();
    expect((await panes(page)).map((p) => p.time)).toEqual([at, at, at]);
    expect(lab.seen.errors).toEqual([]);
  }, 90_000);

  it('flapping, seed vs kubernetes: panes step together; the divergence marks are where the decided replicas part and meet', async () => {
    const page = lab.page;
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${lab.base}?loop=incus-hpa&scenario=flapping`, { timeout: 120_000 });
    // Entered from the lab's own button: the loop's first two policies.
    await page.getByTestId('side-by-side').click();
    await page.getByTestId('compare').waitFor();
    expect(await page.getByTestId('compare').getAttribute('data-columns')).toBe('seed,kubernetes');
    expect(new URL(page.url()).searchParams.get('compare')).toBe('seed,kubernetes');

    // In step: every pane at the shared time, each showing its last frame at or before it.
    for (let k = 0; k < 12; k++) {
      await page.getByTestId('btn-step').click();
      const ps = await panes(page);
      expect(ps.map((p) => p.policy)).toEqual(['seed', 'kubernetes']);
      expect(new Set(ps.map((p) => p.time)).size).toBe(1);
      for (const p of ps) expect(p.frameT).toBeLessThanOrEqual(p.time);
    }

    // The marks (found in the background, a slice at a time): flapping's load swings apart the seed rule (follows every swing) and kubernetes (300 s window).
    await page.locator('[data-testid="divergence-list"][data-ready="true"]').waitFor();
    const marks = await page.$$eval('[data-testid="divergence"]', (els) =>
      els.map((e) => ({ kind: e.getAttribute('data-kind')!, t: Number(e.getAttribute('data-t')) })),
    );
    const parts = marks.filter((m) => m.kind === 'diverge');
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(marks.some((m) => m.kind === 'converge')).toBe(true);
    for (const m of marks.slice(0, 4)) {
      await page.locator(`[data-testid="divergence"][data-t="${m.t}"]`).click();
      expect(await page.getByTestId('compare-time').textContent()).toMatch(/^\d+:\d\d$/);
      const at = await panes(page);
      expect(at.every((p) => p.time === m.t)).toBe(true);
      // At a 'diverge' mark the decisions differ (and the second pane is flagged); at a 'converge' they agree.
      if (m.kind === 'diverge') {
        expect(at[0]!.decided).not.toBe(at[1]!.decided);
        expect(at[1]!.differs).toBe(true);
      } else expect(at[0]!.decided).toBe(at[1]!.decided);
      // Just before a mark, the other way round (or no decision yet).
      await page.getByTestId('btn-back').click();
      const before = await panes(page);
      expect(before[0]!.time).toBeLessThan(m.t);
      if (m.kind === 'diverge') expect(before[0]!.decided).toBe(before[1]!.decided);
      else expect(before[0]!.decided).not.toBe(before[1]!.decided);
    }
  }, 60_000);

  it('a kill made side by side reaches every run at the same instant; the marks are found again with it', async () => {
    const page = lab.page;
    await page.goto(`${lab.base}?loop=incus-hpa&scenario=flapping&compare=seed,kubernetes`);
    await page.locator('[data-testid="divergence-list"][data-ready="true"]').waitFor();
    const before = await page.$$eval('[data-testid="divergence"]', (els) => els.map((e) => e.getAttribute('data-t')).join(' '));
    for (let k = 0; k < 6; k++) await page.getByTestId('btn-step').click();
    const at = (await panes(page))[0]!.time;
    await page.getByTestId('compare-fault-pod').selectOption('pod');
    await page.getByTestId('compare-fault-kill').click();
    const ps = await panes(page);
    expect(new Set(ps.map((p) => p.time))).toEqual(new Set([at]));
    // Each pane's world: the killed pod is no longer Running, in both runs.
    for (const policy of ['seed', 'kubernetes']) {
      expect(
        await page
          .locator(`[data-testid="compare-pane"][data-policy="${policy}"] [data-testid="pod"][data-name="pod"]`)
          .getAttribute('data-status'),
      ).not.toBe('Running');
    }
    await page.locator('[data-testid="divergence-list"][data-ready="true"]').waitFor();
    const after = await page.$$eval('[data-testid="divergence"]', (els) => els.map((e) => e.getAttribute('data-t')).join(' '));
    // The killed pod changes the runs from `at` on: the marks are those of the runs with the kill.
    expect(after).not.toBe(before);
    const first = page.locator('[data-testid="divergence"][data-kind="diverge"]').first();
    await first.click();
    const parted = await panes(page);
    expect(parted[0]!.decided).not.toBe(parted[1]!.decided);
  }, 60_000);

  it('three columns in presenter mode fit 1280×720; the Kubernetes HPA loop too; a bad column list is named', async () => {
    const page = lab.page;
    await page.goto(`${lab.base}?loop=incus-hpa&scenario=flapping&compare=seed,kubernetes,fixed&presenter=1&t=200000`);
    await page.getByTestId('compare').waitFor();
    for (let k = 0; k < 20; k++) await page.keyboard.press('ArrowRight');
    expect(await panes(page).then((ps) => ps.map((p) => p.policy))).toEqual(['seed', 'kubernetes', 'fixed']);
    expect(await page.evaluate(() => document.scrollingElement!.scrollHeight)).toBeLessThanOrEqual(720);
    await page.screenshot({ path: join(ROOT, 'test-results/compare-presenter-1280.png') });

    await page.goto(`${lab.base}?loop=kubernetes&scenario=kubernetes-hpa&compare=kubernetes,seed&presenter=1`);
    await page.getByTestId('compare').waitFor();
    const first = page.locator('[data-testid="divergence"][data-kind="diverge"]').first();
    await first.click();
    const ps = await panes(page);
    expect(ps[0]!.decided).not.toBe(ps[1]!.decided);
    expect(await page.evaluate(() => document.scrollingElement!.scrollHeight)).toBeLessThanOrEqual(720);

    await page.goto(`${lab.base}?loop=incus-hpa&scenario=flapping&compare=seed,bogus`);
    await page.getByTestId('lab').waitFor();
    expect(await page.getByTestId('url-problems').textContent()).toContain('compare=seed,bogus: no such policy "bogus"');
    expect(await page.getByTestId('compare').count()).toBe(0);
    expect(lab.seen.errors).toEqual([]);
  }, 60_000);
});
