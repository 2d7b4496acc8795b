// Presenter mode is the product (the lab is shown in talks): at 1280×720 and 1920×1080 everything a talk
// needs is on screen without scrolling, the statechart's type is measured as rendered, and the keyboard
// drives the lab whatever has focus (except text fields) without a drop-down stealing the arrows.
import { expect, it } from 'vitest';
import { galleryPath, scenarioPerLoop, settled, useLabPage, withChromium } from './harness';

/** Rendered type of the statechart: font-size × the scale the canvas applies (rect height / layout height). Runs in the page. */
const MEASURE = `(() => {
  const canvas = document.querySelector('[data-testid="sc-canvas"]').getBoundingClientRect();
  const inside = (r) => r.right > canvas.left && r.left < canvas.right && r.bottom > canvas.top && r.top < canvas.bottom;
  const sizes = (sel) => [...document.querySelectorAll(sel)].filter((e) => inside(e.getBoundingClientRect()))
    .map((e) => parseFloat(getComputedStyle(e).fontSize) * e.getBoundingClientRect().height / e.offsetHeight);
  const active = [...document.querySelectorAll('[data-testid="sc-node"][data-active="true"]')].map((e) => e.getBoundingClientRect());
  const leaf = active.sort((a, b) => a.width * a.height - b.width * b.height)[0];
  return { nodes: sizes('.sc-label'), edges: sizes('.sc-edge-label'),
    activeInView: !!leaf && leaf.left >= canvas.left - 1 && leaf.right <= canvas.right + 1 && leaf.top >= canvas.top - 1 && leaf.bottom <= canvas.bottom + 1 };
})()`;

/** Bottom edge and clipping of the panels a talk needs, and the page's own scroll. */
const FIT = `(() => {
  const ids = ['phase-banner', 'statechart', 'world', 'interventions', 'config-editor', 'presenter-exit', 'fullscreen-prompt'];
  const panels = ids.map((id) => [id, document.querySelector('[data-testid="' + id + '"]')]).filter(([, e]) => e)
    .map(([id, e]) => { const r = e.getBoundingClientRect(); return { id, top: r.top, bottom: r.bottom, left: r.left, right: r.right }; });
  return { scrollHeight: document.documentElement.scrollHeight, scrollWidth: document.documentElement.scrollWidth, panels };
})()`;
type Fit = {
  scrollHeight: number;
  scrollWidth: number;
  panels: { id: string; top: number; bottom: number; left: number; right: number }[];
};
type Measured = { nodes: number[]; edges: number[]; activeInView: boolean };

withChromium.describe('presenter mode and keyboard (chromium)', () => {
  const lab = useLabPage();
  // The first page of a cold dev server transforms the whole lab: opened once before the timed tests.
  it('opens the lab once (warms the dev server)', async () => {
    lab.page.setDefaultTimeout(60_000);
    await lab.page.goto(`${lab.base}?scenario=talk-lab`, { timeout: 170_000 });
    await lab.page.getByTestId('lab').waitFor({ timeout: 170_000 });
  }, 180_000);
  const { text, machineId } = lab;
  const open = async (query: string) => {
    await lab.open(query);
    await lab.page.locator('[data-testid="sc-node"]').first().waitFor();
    await lab.page.locator('.sc-edge-label').first().waitFor();
  };
  const measure = async () => (await lab.page.evaluate(MEASURE)) as Measured;

  it('statechart type is ≥ 16 px (states) and ≥ 14 px (edge labels) at 1280×720 and 1920×1080, and follows the active state', async () => {
    for (const [width, height] of [
      [1280, 720],
      [1920, 1080],
    ] as const) {
      await lab.page.setViewportSize({ width, height });
      for (const id of ['talk-lab', 'systemd-crash-loop']) {
        await open(`?scenario=${id}&presenter=1&t=90000`);
        const m = await measure();
        expect(m.nodes.length, `${id} ${width}: states in view`).toBeGreaterThan(0);
        expect(Math.min(...m.nodes), `${id} ${width}: state text`).toBeGreaterThanOrEqual(16);
        expect(m.edges.length, `${id} ${width}: edge labels in view`).toBeGreaterThan(0);
        expect(Math.min(...m.edges), `${id} ${width}: edge label text`).toBeGreaterThanOrEqual(14);
        expect(m.activeInView, `${id} ${width}: active state in view`).toBe(true);
        // Stepping moves the camera with the active state.
        for (let i = 0; i < 3; i++) await lab.page.getByTestId('btn-step').click();
        expect((await measure()).activeInView, `${id} ${width}: active state in view after steps`).toBe(true);
      }
    }
    await lab.page.screenshot({ path: galleryPath('presenter-1920') });
  }, 120_000);

  it('re-fits on resize; whole-chart toggle; diagram-only view; zoom buttons drawn', async () => {
    await lab.page.setViewportSize({ width: 1920, height: 1080 });
    await open('?scenario=systemd-crash-loop&presenter=1&t=90000');
    await lab.page.setViewportSize({ width: 1280, height: 720 });
    await settled(lab.page);
    const after = await measure();
    expect(after.activeInView).toBe(true);
    expect(Math.min(...after.nodes)).toBeGreaterThanOrEqual(16);
    const chart = lab.page.getByTestId('statechart');
    expect(await chart.getAttribute('data-view')).toBe('follow');
    await lab.page.getByTestId('sc-view').click();
    expect(await chart.getAttribute('data-view')).toBe('whole');
    // The whole chart: every state is inside the canvas.
    const all = await lab.page.evaluate(`(() => { const c = document.querySelector('[data-testid="sc-canvas"]').getBoundingClientRect();
      return [...document.querySelectorAll('[data-testid="sc-node"]')].every((e) => { const r = e.getBoundingClientRect();
        return r.left >= c.left - 1 && r.right <= c.right + 1 && r.top >= c.top - 1 && r.bottom <= c.bottom + 1; }); })()`);
    expect(all).toBe(true);
    await lab.page.keyboard.press('w');
    expect(await chart.getAttribute('data-view')).toBe('follow');
    await lab.page.keyboard.press('d');
    expect(await lab.page.getByTestId('world').count()).toBe(0);
    expect(await lab.page.getByTestId('sc-diagram-only').getAttribute('aria-pressed')).toBe('true');
    await lab.page.getByTestId('sc-diagram-only').click();
    expect(await lab.page.getByTestId('world').count()).toBe(1);
    // Zoom buttons: the icon is drawn in a colour other than the button's (they were blank white squares).
    const colours = (await lab.page.evaluate(`(() => { const b = document.querySelector('.react-flow__controls-button');
      const s = getComputedStyle(b); const svg = getComputedStyle(b.querySelector('svg'));
      const r = b.getBoundingClientRect(); return { bg: s.backgroundColor, fill: svg.fill, w: r.width, h: r.height }; })()`)) as {
      bg: string;
      fill: string;
      w: number;
      h: number;
    };
    expect(colours.fill).not.toBe(colours.bg);
    expect(colours.w).toBeGreaterThanOrEqual(30);
  }, 120_000);

  it('at 1280×720 every loop fits without a page scroll: banner, statechart, world, interventions, editor; the exit button covers nothing', async () => {
    await lab.page.setViewportSize({ width: 1280, height: 720 });
    for (const { loop, id } of scenarioPerLoop({ withChecks: false })) {
      await open(`?scenario=${id}&presenter=1&t=90000`);
      const fit = (await lab.page.evaluate(FIT)) as Fit;
      expect(fit.scrollHeight, `${loop}: page height`).toBeLessThanOrEqual(720);
      expect(fit.scrollWidth, `${loop}: page width`).toBeLessThanOrEqual(1280);
      const ids = fit.panels.map((p) => p.id);
      for (const need of ['phase-banner', 'statechart', 'world', 'presenter-exit', 'fullscreen-prompt'])
        expect(ids, `${loop}: ${need}`).toContain(need);
      // The interventions and the editor are tabs under the world (the world keeps the room it needs): checked opened, below.
      for (const p of fit.panels.filter((p) => p.id !== 'interventions' && p.id !== 'config-editor'))
        expect(p.bottom, `${loop}: ${p.id} bottom`).toBeLessThanOrEqual(720);
      const banner = fit.panels.find((p) => p.id === 'phase-banner')!;
      const exit = fit.panels.find((p) => p.id === 'presenter-exit')!;
      expect(exit.top >= banner.bottom || exit.bottom <= banner.top, `${loop}: exit button overlaps the banner`).toBe(true);
      if (['incus-hpa', 'systemd-restart', 'kubernetes'].includes(loop)) {
        for (const [tab, id] of [
          ['tab-act', 'interventions'],
          ['tab-editor', 'config-editor'],
        ] as const) {
          await lab.page.getByTestId(tab).click();
          await settled(lab.page);
          const panel = ((await lab.page.evaluate(FIT)) as Fit).panels.find((p) => p.id === id);
          expect(panel, `${loop}: ${id}`).toBeDefined();
          expect(panel!.bottom, `${loop}: ${id} bottom`).toBeLessThanOrEqual(720);
        }
      }
    }
  }, 120_000);

  it('pod names and Kubernetes statuses are not cut short in presenter mode', async () => {
    await lab.page.setViewportSize({ width: 1280, height: 720 });
    const cut = `(() => [...document.querySelectorAll('.pod-name, .kubernetes-pod .pod-meta')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent))()`;
    await open('?scenario=talk-lab&presenter=1&t=120000');
    expect(await lab.page.getByTestId('pod').count()).toBeGreaterThan(1);
    expect(await lab.page.evaluate(cut)).toEqual([]);
    await open('?scenario=kubernetes-replicaset&presenter=1&t=60');
    expect(await lab.page.getByTestId('kubernetes-pod').count()).toBeGreaterThan(0);
    expect(await lab.page.evaluate(cut)).toEqual([]);
  }, 120_000);

  it('a deep link shows a one-click "enter full screen" prompt that enters full screen', async () => {
    await open('?scenario=talk-lab&presenter=1');
    const prompt = lab.page.getByTestId('fullscreen-prompt');
    expect(await prompt.isVisible()).toBe(true);
    await prompt.click();
    await lab.page.waitForFunction('document.fullscreenElement !== null', null, { timeout: 5000 });
    expect(await prompt.count()).toBe(0);
    await lab.page.evaluate('document.exitFullscreen()');
    await prompt.waitFor();
  }, 120_000);

  it('keyboard: a drop-down gives the arrows back after a choice; Space/Enter press the focused button; text fields keep their keys', async () => {
    await lab.page.setViewportSize({ width: 1400, height: 900 });
    await open('?scenario=talk-lab');
    const frames = async () => Number((await text('frame-index')).split('/')[0]);
    // Picking a scenario, then →: the next phase, not the next scenario.
    await lab.page.getByTestId('scenario-select').selectOption('flapping');
    await lab.page.getByTestId('lab').waitFor();
    const before = await frames();
    await lab.page.keyboard.press('ArrowRight');
    expect(await lab.page.getByTestId('scenario-select').inputValue()).toBe('flapping');
    expect(await frames()).toBeGreaterThan(before);
    // Speed and language drop-downs: → steps, the choice stays.
    await lab.page.getByTestId('speed').selectOption('5');
    await lab.page.keyboard.press('ArrowRight');
    expect(await lab.page.getByTestId('speed').inputValue()).toBe('5');
    await lab.page.getByTestId('lang-select').selectOption('pt-BR');
    await lab.page.keyboard.press('ArrowRight');
    await lab.page.keyboard.press('ArrowLeft');
    expect(await lab.page.getByTestId('lang-select').inputValue()).toBe('pt-BR');
    await lab.page.getByTestId('lang-select').selectOption('en');
    // Even with a drop-down still focused (no choice made), ← and → drive the lab.
    await lab.page.getByTestId('speed').focus();
    const at = await frames();
    await lab.page.keyboard.press('ArrowRight');
    expect(await frames()).toBeGreaterThan(at);
    expect(await lab.page.getByTestId('speed').inputValue()).toBe('5');
    // Space on a focused Kill presses Kill (it used to toggle play).
    await open('?scenario=talk-lab');
    await lab.page.getByTestId('fault-kill').focus();
    await lab.page.keyboard.press(' ');
    expect(await lab.page.getByTestId('lab').getAttribute('data-playing')).toBe('false');
    expect(await machineId('event')).toBe('world.inject');
    expect(await lab.page.locator('[data-testid="pod"][data-name="pod"]').getAttribute('data-status')).toBe('Stopped');
    // Enter on a focused Step presses it once.
    const n = await frames();
    await lab.page.getByTestId('btn-step').focus();
    await lab.page.keyboard.press('Enter');
    expect(await frames()).toBeGreaterThan(n);
    expect(await lab.page.getByTestId('lab').getAttribute('data-playing')).toBe('false');
    // In the hpa.yaml editor, Space and arrows are text.
    const m = await frames();
    const editor = lab.page.getByTestId('config-text');
    await editor.focus();
    await lab.page.keyboard.press('End');
    await lab.page.keyboard.press(' ');
    await lab.page.keyboard.press('ArrowLeft');
    expect(await frames()).toBe(m);
    expect(await lab.page.getByTestId('lab').getAttribute('data-playing')).toBe('false');
    expect((await editor.inputValue()).endsWith(' ') || (await editor.inputValue()).includes(' \n')).toBe(true);
  }, 120_000);
});
