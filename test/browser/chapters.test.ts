import { expect, it } from 'vitest';
import { TOUR } from '../../web/tour/stops';
import { englishIn } from './english';
import { useLabPage, withChromium } from './harness';

withChromium.describe('chapters (scenario moments) in chromium', () => {
  const lab = useLabPage();
  const { text } = lab;
  // A cold dev server on a loaded machine can take long for the first page.
  const open = (query: string) => lab.open(query, 120_000);

  it('talk-lab lists its chapters; moment=first-scale-up opens at the first act; each chapter jumps there', async () => {
    await open('?loop=incus-hpa&scenario=talk-lab&moment=first-scale-up');
    await lab.page.getByTestId('chapters').waitFor();
    expect(await lab.page.getByTestId('phase').getAttribute('data-phase')).toBe('act');
    expect(await text('time')).toBe('1:00');
    expect(await lab.page.getByTestId('chapter-first-scale-up').getAttribute('data-current')).toBe('true');
    const titles = await lab.page.locator('[data-testid^="chapter-"] ').allInnerTexts();
    expect(titles.join('\n')).toMatch(/Load arrives[\s\S]*First scale-up[\s\S]*Instance is running[\s\S]*leftover Stopped pod/);

    // Forward: the run goes on until the seed's DELETE is refused.
    await lab.page.getByTestId('chapter-instance-is-running').click();
    expect(await text('time')).toBe('12:01');
    expect(await lab.page.getByTestId('phase').getAttribute('data-phase')).toBe('error');
    await lab.page.getByTestId('chapter-leftover-stopped-pod').click();
    expect(await text('time')).toBe('12:20');
    expect(await lab.page.locator('[data-status="Stopped"]').count()).toBeGreaterThan(0);
    // Back: a recorded frame (the past), not a new run.
    await lab.page.getByTestId('chapter-load-arrives').click();
    expect(await text('time')).toBe('1:00');
    expect(await lab.page.getByTestId('viewing-past').count()).toBe(1);
  }, 180_000);

  it('a built-in moment works on any scenario; an unknown one says which names exist', async () => {
    await open('?loop=systemd-restart&scenario=systemd-crash-loop&moment=first-error');
    await lab.page.waitForFunction(() => document.querySelector('[data-testid="phase"]')?.getAttribute('data-phase') === 'error');
    await open('?loop=incus-hpa&scenario=talk-lab&moment=second-act');
    expect(await text('chapter-problem')).toMatch(
      /moment "second-act": expected one of load-arrives, first-scale-up, instance-is-running, leftover-stopped-pod, first-act/,
    );
    expect(await text('time')).toBe('0:00');
  }, 180_000);

  it("the talk's tour visits every loop in the talk's order, each at its prepared chapter; [ and ] move; pt-BR; a bad stop is named", async () => {
    await lab.page.goto(`${lab.base}`, { timeout: 120_000 });
    await lab.page.getByTestId('start-tour').click();
    const order: string[] = [];
    for (let stop = 1; stop <= TOUR.length; stop++) {
      if (stop > 1) await lab.page.keyboard.press(']');
      await lab.page.locator(`[data-testid="tour-bar"][data-stop="${stop}"]`).waitFor({ timeout: 60_000 });
      const { loop, moment } = TOUR[stop - 1]!;
      await lab.page.locator(`[data-testid="lab"][data-loop="${loop}"]`).waitFor({ timeout: 60_000 });
      // The stop opens at its chapter: that chapter is the frame on screen.
      await lab.page.locator(`[data-testid="chapter-${moment}"][data-current="true"]`).waitFor({ timeout: 60_000 });
      expect(await lab.page.getByTestId('chapter-problem').count()).toBe(0);
      order.push(loop);
    }
    expect(order).toEqual(['cron', 'puppet', 'systemd-restart', 'terraform', 'kubernetes', 'incus-hpa']);
    expect(await lab.page.getByTestId('tour-next').isDisabled()).toBe(true);
    await lab.page.keyboard.press('[');
    await lab.page.locator('[data-testid="tour-bar"][data-stop="5"]').waitFor();
    expect(lab.page.url()).toContain('tour=5');

    // A link to a stop, in Portuguese: the bar has no English left.
    await open('?tour=3&lang=pt-BR');
    await lab.page.locator('[data-testid="chapter-start-limit-hit"][data-current="true"]').waitFor({ timeout: 60_000 });
    const bar = await lab.page.getByTestId('tour-bar').innerText();
    expect(bar).toContain('Parada 3 de 6');
    for (const line of bar.split('\n').filter((l) => l.trim())) expect(englishIn(line), line).toBeUndefined();

    await lab.page.goto(`${lab.base}?tour=9`, { timeout: 120_000 });
    expect(await text('url-problems')).toMatch(/tour=9: no such stop \(expected 1 to 6\)/);
    await lab.page.getByTestId('home').waitFor();
  }, 240_000);
});
