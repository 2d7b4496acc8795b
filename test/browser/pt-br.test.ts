import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { expect, it } from 'vitest';
import { VISIBLE_TEXTS, englishIn } from './english';
import { ROOT, useLabPage, withChromium } from './harness';

const SCENARIOS = readdirSync(join(ROOT, 'scenarios'))
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => ({
    id: f.replace(/\.yaml$/, ''),
    loop: (parse(readFileSync(join(ROOT, 'scenarios', f), 'utf8')) as { loop?: string } | null)?.loop,
  }))
  // Every loop's every scenario (hpa.yaml is real mode's configuration, not a scenario).
  .filter((s): s is { id: string; loop: string } => s.loop !== undefined);

const STEPS_LATER = Number(process.env.LOOPSCOPE_PTBR_STEPS ?? 9);

/** What the statechart and the banner's event line show (visible text), to prove the collector reads them. */
const CHART_AND_EVENT = `(() => ({
  states: [...document.querySelectorAll('[data-testid="sc-node"] .sc-label')].map((e) => (e.textContent || '').replace(/^● /, '').trim()),
  edges: [...document.querySelectorAll('.sc-edge-label')].map((e) => (e.textContent || '').trim()),
  event: (document.querySelector('[data-testid="event"]')?.textContent || '').trim(),
}))()`;

withChromium.describe('the lab in Portuguese (pt-BR) in chromium', () => {
  const lab = useLabPage();

  it('every scenario of every loop, stepped, shows no untranslated English', async () => {
    const page = lab.page;
    const found = new Map<string, string>();
    const check = async (where: string) => {
      const seen = (await page.evaluate(VISIBLE_TEXTS)) as string[]; // VISIBLE_TEXTS returns the texts it found
      for (const s of seen) {
        const hit = englishIn(s);
        if (hit && !found.has(s)) found.set(s, `${where}: ${hit.why}`);
      }
      return seen;
    };
    // For one scenario per loop: the chart's states and edges and the event line are among what was checked.
    const loopsSeen = new Set<string>();
    const notCollected: string[] = [];
    // Steps clicked in the page in one go (one round trip, not one per click); the lab renders before the next look.
    const step = (n: number) =>
      page.evaluate((count) => {
        for (let k = 0; k < count; k++) document.querySelector<HTMLButtonElement>('[data-testid="btn-step"]')!.click();
        return new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      }, n);
    await page.goto(`${lab.base}?loop=incus-hpa&scenario=talk-lab&lang=pt-BR`, { timeout: 120_000 });
    await page.getByTestId('lab').waitFor({ timeout: 120_000 });
    for (const s of SCENARIOS) {
      // The picker opens each scenario in the same page (no reload: quick), the language kept.
      await page.getByTestId('scenario-select').selectOption(s.id);
      await page.waitForFunction(
        (id) =>
          document.querySelector<HTMLSelectElement>('[data-testid="scenario-select"]')?.value === id &&
          document.querySelector('[data-testid="time"]')?.textContent === '0:00',
        s.id,
      );
      await check(s.id);
      // A few phases in (the first decision), then a few cycles on (acts, faults of the timeline).
      await step(3);
      const seen = await check(`${s.id} (stepped)`);
      if (!loopsSeen.has(s.loop)) {
        loopsSeen.add(s.loop);
        const shown = (await page.evaluate(CHART_AND_EVENT)) as { states: string[]; edges: string[]; event: string }; // CHART_AND_EVENT's own shape
        expect(shown.states.length, `${s.id}: states drawn`).toBeGreaterThan(0);
        expect(shown.edges.length, `${s.id}: edge labels drawn`).toBeGreaterThan(0);
        expect(shown.event, `${s.id}: the event line`).not.toBe('');
        const collected = new Set(seen);
        for (const text of [...shown.states, ...shown.edges, shown.event]) if (!collected.has(text)) notCollected.push(`${s.id}: ${text}`);
      }
      await step(STEPS_LATER);
      await check(`${s.id} (stepped on)`);
    }
    // Side by side (both HPA loops) and the export menu, in Portuguese too.
    for (const q of [
      'loop=incus-hpa&scenario=flapping&compare=seed,kubernetes,fixed',
      'loop=kubernetes&scenario=kubernetes-hpa&compare=kubernetes,seed',
    ]) {
      await page.goto(`${lab.base}?${q}&lang=pt-BR`);
      await page.getByTestId('compare').waitFor();
      await check(`${q}`);
      await step(STEPS_LATER + 3);
      await check(`${q} (stepped)`);
    }
    await page.goto(`${lab.base}?loop=terraform&scenario=terraform-drift&lang=pt-BR`);
    await page.getByTestId('export-open').click();
    await page.getByTestId('export-chart-png').waitFor();
    await check('export menu');
    expect(await page.getByTestId('app').getAttribute('data-lang')).toBe('pt-BR');
    expect([...found].map(([text, why]) => `${why} || ${text.slice(0, 160)}`)).toEqual([]);
    expect(notCollected).toEqual([]);
    expect([...loopsSeen].sort()).toEqual([...new Set(SCENARIOS.map((s) => s.loop))].sort());
  }, 600_000);
});
