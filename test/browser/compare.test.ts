import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { ROOT, useLabPage, withChromium } from './harness';

interface PaneState { policy: string; time: number; frameT: number; decided: string; differs: boolean }
const panes = (page: Page) => page.$$eval('[data-testid="compare-pane"]', (els) => els.map((e) => ({
  policy: e.getAttribute('data-policy')!, time: Number(e.getAttribute('data-time')), frameT: Number(e.getAttribute('data-frame-t')),
  decided: e.getAttribute('data-decided')!, differs: e.getAttribute('data-differs') === 'true',
}))) as Promise<PaneState[]>;

withChromium.describe('side by side: one scenario and seed under two or three policies, in step (chromium)', () => {
  const lab = useLabPage();

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
    const marks = await page.$$eval('[data-testid="divergence"]', (els) => els.map((e) => ({ kind: e.getAttribute('data-kind')!, t: Number(e.getAttribute('data-t')) })));
    const parts = marks.filter((m) => m.kind === 'diverge');
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(marks.some((m) => m.kind === 'converge')).toBe(true);
    for (const m of marks.slice(0, 4)) {
      await page.locator(`[data-testid="divergence"][data-t="${m.t}"]`).click();
      expect(await page.getByTestId('compare-time').textContent()).toMatch(/^\d+:\d\d$/);
      const at = await panes(page);
      expect(at.every((p) => p.time === m.t)).toBe(true);
      // At a 'diverge' mark the decisions differ (and the second pane is flagged); at a 'converge' they agree.
      if (m.kind === 'diverge') { expect(at[0]!.decided).not.toBe(at[1]!.decided); expect(at[1]!.differs).toBe(true); }
      else expect(at[0]!.decided).toBe(at[1]!.decided);
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
      expect(await page.locator(`[data-testid="compare-pane"][data-policy="${policy}"] [data-testid="pod"][data-name="pod"]`).getAttribute('data-status')).not.toBe('Running');
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
