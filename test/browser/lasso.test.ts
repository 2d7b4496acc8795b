// A liveness counterexample (a lasso: the seed rule flapping for ever under an oscillating load)
// loads in the lab, which draws its cycle under the scrubber as a loop back to the cycle's start —
// as loopscope's trace JSON and as ITF.
import { expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { loadScenario } from '../../sim/loops';
import { itfJson, traceToItf } from '../../sim/itf/export';
import { galleryPath, ROOT, useLabPage, withChromium } from './harness';

withChromium.describe('a lasso counterexample in the lab (chromium)', () => {
  const lab = useLabPage();
  const { text } = lab;

  const { entry, scenario } = loadScenario(`${ROOT}/scenarios/incus-hpa-check-flapping.yaml`);
  const run = checkScenario(entry, scenario, { policy: 'seed' });
  const { trace } = run.counterexamples.find((c) => c.property === 'settles')!;
  const cycleStart = trace.lasso!.cycleStart;

  for (const lang of ['en', 'pt-BR'] as const) {
    it(`draws the cycle as a loop and jumps to its start (${lang})`, async () => {
      await lab.page.goto(`${lab.base}?loop=incus-hpa&lang=${lang}`);
      await lab.page.getByTestId('trace-file').waitFor({ state: 'attached' });
      await lab.page
        .getByTestId('trace-file')
        .setInputFiles({ name: 'settles.trace.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(trace)) });
      await lab.page.waitForSelector('[data-testid="lab"][data-source="trace"]');
      const lasso = lab.page.getByTestId('lasso');
      expect(await lasso.getAttribute('data-cycle-start')).toBe(String(cycleStart));
      expect(await lasso.innerText()).toContain(lang === 'en' ? 'repeats forever' : 'repete para sempre');
      // The bracket spans the cycle: it starts where the cycle's first frame sits on the slider and ends at the last.
      const slider = (await lab.page.getByTestId('scrubber').boundingBox())!;
      const bracket = (await lasso.boundingBox())!;
      expect(bracket.x).toBeGreaterThan(slider.x + slider.width * 0.2);
      expect(bracket.x + bracket.width).toBeLessThanOrEqual(slider.x + slider.width + 1);
      if (lang === 'en') {
        const bar = (await lab.page.locator('.lab-bar').boundingBox())!;
        await lab.page.screenshot({
          path: galleryPath('lasso-scrubber'),
          clip: { x: bar.x, y: bar.y, width: bar.width, height: bar.height + 40 },
        });
      }
      await lasso.click();
      expect(await text('frame-index')).toBe(`${cycleStart + 1}/${trace.frames.length}`);
      expect(await lab.page.getByTestId('view-error').count()).toBe(0);
      expect(lab.seen.errors).toEqual([]);
    }, 60_000);
  }

  it('the same lasso as ITF (check --trace-format itf) loads as a trace with its cycle', async () => {
    await lab.page.goto(`${lab.base}?loop=incus-hpa`);
    await lab.page.getByTestId('trace-file').waitFor({ state: 'attached' });
    await lab.page
      .getByTestId('trace-file')
      .setInputFiles({ name: 'settles.itf.json', mimeType: 'application/json', buffer: Buffer.from(itfJson(traceToItf(trace))) });
    await lab.page.waitForSelector('[data-testid="lab"][data-source="trace"]');
    expect(await lab.page.getByTestId('lasso').getAttribute('data-cycle-start')).toBe(String(cycleStart));
    expect(await text('frame-index')).toMatch(new RegExp(`/${trace.frames.length}$`));
    expect(await lab.page.getByTestId('view-error').count()).toBe(0);
    expect(lab.seen.errors).toEqual([]);
  }, 60_000);

  it('a trace without a lasso draws no loop', async () => {
    const plain = run.counterexamples.find((c) => c.property === 'no-leftovers')!.trace;
    expect(plain.lasso).toBeUndefined();
    await lab.page.goto(`${lab.base}?loop=incus-hpa`);
    await lab.page.getByTestId('trace-file').waitFor({ state: 'attached' });
    await lab.page
      .getByTestId('trace-file')
      .setInputFiles({ name: 'plain.trace.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(plain)) });
    await lab.page.waitForSelector('[data-testid="lab"][data-source="trace"]');
    expect(await lab.page.getByTestId('lasso').count()).toBe(0);
  }, 60_000);
});
