import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { LabServer } from '../../cli/lab/serve';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops/index';
import { galleryPath, labActions, launchChromium, offsite, ROOT, scenarioPerLoop, startLab, watch, withChromium } from './harness';

withChromium.describe('web lab in chromium', () => {
  let server: LabServer;
  let base: string;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let seen: ReturnType<typeof watch>;

  beforeAll(async () => {
    ({ server, url: base } = await startLab());
    chrome = await launchChromium();
    page = await chrome.context.newPage();
    seen = watch(page);
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  const { text, machineId, open, stepUntil: stepUntilAt } = labActions(() => ({ page, base }));
  const stepUntil = (done: () => Promise<boolean>, max = 60) => stepUntilAt(done, max);
  const phase = () => page.getByTestId('phase').getAttribute('data-phase');
  const activeInChart = () => page.getByTestId('statechart').getAttribute('data-active');
  const litNodes = () =>
    page.locator('[data-testid="sc-node"][data-active="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-label')));

  it('home lists the loops as a timeline; the HPA lab is runnable', async () => {
    await page.goto(base);
    await page.getByTestId('home').waitFor();
    for (const id of ['cron', 'puppet', 'systemd-restart', 'terraform', 'kubernetes', 'incus-hpa']) {
      expect(await page.getByTestId(`loop-card-${id}`).count()).toBe(1);
    }
    await page.screenshot({ path: galleryPath('home') });
    await page.getByTestId('open-talk-lab').click();
    await page.getByTestId('lab').waitFor();
    expect(page.url()).toContain('scenario=talk-lab');
  }, 90_000); // a cold dev server pre-bundles dependencies on the first visit

  it('opens the talk-lab scenario with its statechart drawn from the machine', async () => {
    await open('?loop=incus-hpa&scenario=talk-lab');
    expect(await phase()).toBe('observe');
    expect(await machineId('state')).toBe('observing');
    expect(await page.getByTestId('pod').count()).toBe(1);
    await page.locator('[data-testid="sc-node"]').first().waitFor();
    const labels = await page.locator('[data-testid="sc-node"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-label')));
    expect(labels.sort()).toEqual(['acting', 'backoff', 'comparing', 'creating', 'deleting', 'next', 'observing', 'waiting']);
    expect(await litNodes()).toEqual(['observing']);
  });

  it('steps forward phase by phase and back again: banner, diagram and world follow', async () => {
    const before = { phase: await phase(), state: await machineId('state'), time: await text('time') };
    await page.getByTestId('btn-step').click();
    expect(await phase()).toBe('compare');
    expect(await machineId('state')).toBe('comparing');
    expect(await activeInChart()).toBe('comparing');
    expect(await litNodes()).toEqual(['comparing']);
    expect(await text('decision')).toMatch(/keep 1 pod: no action/);
    await page.keyboard.press('ArrowRight');
    expect(await phase()).toBe('wait');
    await page.keyboard.press('ArrowLeft');
    expect(await phase()).toBe('compare');
    await page.getByTestId('btn-back').click();
    expect({ phase: await phase(), state: await machineId('state'), time: await text('time') }).toEqual(before);
    // Under stress the loop acts: the compound state "acting" and its child light up together.
    await open('?loop=incus-hpa&scenario=talk-lab&t=75000');
    await stepUntil(async () => (await phase()) === 'act');
    expect((await litNodes()).sort()).toEqual(['acting', 'creating']);
    expect(await page.locator('[data-testid="pod"][data-status="Starting"]').count()).toBe(1);
  });

  it('plays: the stressed pod makes the HPA scale out (space, + and − work too)', async () => {
    await open('?loop=incus-hpa&scenario=talk-lab');
    await page.getByTestId('speed').selectOption('50');
    await page.keyboard.press('+');
    expect(await page.getByTestId('speed').inputValue()).toBe('100');
    await page.keyboard.press('-');
    await page.keyboard.press('+');
    await page.keyboard.press(' ');
    expect(await page.getByTestId('lab').getAttribute('data-playing')).toBe('true');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="pod"][data-status="Running"]').length >= 3, null, {
      timeout: 20_000,
    });
    await page.keyboard.press(' ');
    expect(await page.getByTestId('lab').getAttribute('data-playing')).toBe('false');
    expect(await page.locator('[data-testid="pod"][data-status="Running"]').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('[data-testid="chart"] canvas').count()).toBeGreaterThan(0);
    // The URL names the moment: reopening it shows the same time.
    const moment = await text('time');
    expect(page.url()).toMatch(/[?&]t=\d+/);
    await open(new URL(page.url()).search);
    expect(await text('time')).toBe(moment);
  });

  it('the scrubber travels back over recorded frames without changing the run', async () => {
    const count = await text('frame-index');
    await page.getByTestId('scrubber').fill('3');
    expect(await page.getByTestId('viewing-past').count()).toBe(1);
    expect(await text('frame-index')).toBe(`4/${count.split('/')[1]}`);
    await page.getByTestId('scrubber').fill(String(Number(count.split('/')[1]) - 1));
    expect(await page.getByTestId('viewing-past').count()).toBe(0);
  });

  it('kill a pod: the loop sees it on its next observe and repairs it', async () => {
    await open('?loop=incus-hpa&scenario=talk-lab');
    await page.getByTestId('fault-pod').selectOption('pod');
    await page.getByTestId('fault-kill').click();
    expect(await page.locator('[data-testid="pod"][data-name="pod"]').getAttribute('data-status')).toBe('Stopped');
    expect(await machineId('event')).toBe('world.inject');
    // The seed ignores Stopped instances: running = 0 < min 1 → it creates one.
    await stepUntil(async () => (await page.locator('[data-testid="pod"][data-status="Running"]').count()) === 1);
    expect(await text('note')).toMatch(/create 1 pod|created pod/);
  });

  it('stress a pod and restart the controller: it forgets, observes again, and scales out', async () => {
    await open('?loop=incus-hpa&scenario=talk-lab&seed=9');
    expect(await page.getByTestId('seed').inputValue()).toBe('9');
    await page.getByTestId('fault-stress').click();
    expect(await text('note')).toMatch(/stress pod → 858.3MiB/);
    await stepUntil(async () => (await phase()) === 'act');
    await page.getByTestId('fault-restart').click();
    expect(await machineId('event')).toBe('controller.restart');
    expect(await phase()).toBe('observe');
    expect(await text('note')).toMatch(/controller restarted/);
    await stepUntil(async () => (await page.locator('[data-testid="pod"][data-status="Running"]').count()) >= 3);
  });

  it('fail the API: the loop backs off (ERROR phase) and recovers', async () => {
    await open('?loop=incus-hpa&scenario=talk-lab');
    await page.getByTestId('fault-fail-api').click();
    await stepUntil(async () => (await phase()) === 'error');
    expect(await text('note')).toMatch(/Incus API unavailable/);
    await stepUntil(async () => (await phase()) === 'compare', 20);
  });

  it('edits the desired state: invalid shows the error and changes nothing; valid takes effect', async () => {
    await open('?loop=incus-hpa&scenario=talk-lab');
    const editor = page.getByTestId('config-text');
    const original = await editor.inputValue();
    expect(original).toContain('memoryThreshold: 40');
    await editor.fill(original.replace('maxPods: 5', 'maxPods: 0'));
    await page.getByTestId('config-apply').click();
    expect(await text('config-error')).toMatch(/hpa\.yaml: HPA\.maxPods: expected maxPods ≥ minPods/);
    expect(await machineId('event')).toBe('xstate.init');
    await editor.fill('HPA: { minPods: 3 }\nbogus: 1\n');
    await page.getByTestId('config-apply').click();
    expect(await text('config-error')).toMatch(/bogus: unknown key/);
    await editor.fill(original.replace('minPods: 1', 'minPods: 2'));
    await page.getByTestId('config-apply').click();
    expect(await page.getByTestId('config-error').count()).toBe(0);
    expect(await machineId('event')).toBe('CONFIG.UPDATE');
    expect(await text('note')).toMatch(/config: min 2, max 5, threshold 40%/);
    await stepUntil(async () => (await page.locator('[data-testid="pod"][data-status="Running"]').count()) === 2);
  });

  it('switches the UI to Portuguese (pt-BR)', async () => {
    await page.getByTestId('lang-select').selectOption('pt-BR');
    expect(await text('btn-step')).toContain('Avançar');
    expect(await text('btn-play')).toContain('Executar');
    expect(page.url()).toContain('lang=pt-BR');
    await page.getByTestId('lang-select').selectOption('en');
    expect(await text('btn-step')).toContain('Step');
  });

  it('presenter mode: chrome hidden, high contrast, encoded in the URL', async () => {
    await open('?loop=incus-hpa&scenario=talk-lab&seed=4&policy=kubernetes&t=90000&presenter=1&lang=pt-BR');
    expect(await page.locator('.topbar').isVisible()).toBe(false);
    expect(await page.getByTestId('interventions').count()).toBe(1); // the kill and the live edit are shown in presenter mode too
    expect(await text('time')).toBe('1:30');
    expect(await text('phase-banner')).toMatch(/O laço/);
    const bg = await page.getByTestId('app').evaluate((el) => getComputedStyle(el).getPropertyValue('--bg').trim());
    expect(bg).toBe('#000');
    await page.screenshot({ path: galleryPath('presenter') });
    await page.getByTestId('presenter-exit').click();
    expect(await page.locator('.topbar').isVisible()).toBe(true);
    expect(page.url()).not.toContain('presenter=1');
    expect(page.url()).toContain('policy=kubernetes');
  });

  it('loads a trace file (loopscope sim --json) and steps through it', async () => {
    const { runner } = runnerFor(join(ROOT, 'scenarios/talk-lab.yaml'));
    runner.run(5 * 60_000);
    const trace = runner.trace();
    await open('?loop=incus-hpa&scenario=talk-lab');
    await page
      .getByTestId('trace-file')
      .setInputFiles({ name: 'talk-lab.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(trace)) });
    await page.waitForSelector('[data-testid="lab"][data-source="trace"]');
    expect(await text('trace-name')).toContain('talk-lab.json');
    expect(await text('frame-index')).toBe(`1/${trace.frames.length}`);
    expect(await phase()).toBe(trace.frames[0]!.phase);
    await page.getByTestId('btn-step').click();
    expect(await phase()).toBe('compare');
    await stepUntil(async () => (await page.getByTestId('pod').count()) > 1);
    await page.getByTestId('btn-back').click();
    // A bad file is refused with a reason and the lab keeps the trace it had.
    await page
      .getByTestId('trace-file')
      .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"loop":"x"}') });
    expect(await text('trace-error')).toMatch(/loop: expected one of cron, puppet, /);
    expect(await page.getByTestId('lab').getAttribute('data-source')).toBe('trace');
  });

  const WORLD_VIEW_GALLERY = ['systemd-restart', 'cron', 'kubernetes'];
  it('opens every registered loop, steps it, and saves its screenshot to the gallery', async () => {
    for (const { loop, id } of scenarioPerLoop({ withChecks: true })) {
      await open(`?loop=${loop}&scenario=${id}`);
      expect(await page.getByTestId('scenario-error').count(), `${id} should open`).toBe(0);
      expect(await page.getByTestId('lab').getAttribute('data-loop')).toBe(loop);
      const first = { state: await machineId('state'), frames: await text('frame-index') };
      await page.getByTestId('btn-step').click();
      await page.getByTestId('btn-step').click();
      expect({ state: await machineId('state'), frames: await text('frame-index') }, `${loop} should move`).not.toEqual(first);
      // The gallery shows each loop a little way into its scenario.
      await open(`?loop=${loop}&scenario=${id}&t=90000`);
      await page.locator('[data-testid="sc-node"]').first().waitFor();
      // world-views.test.ts takes the loops with a dedicated world view (full page).
      if (!WORLD_VIEW_GALLERY.includes(loop)) await page.screenshot({ path: galleryPath(loop) });
    }
  });

  it('made no console errors and no request left 127.0.0.1', () => {
    expect(seen.errors).toEqual([]);
    expect(seen.requests.length).toBeGreaterThan(0);
    expect(offsite(seen.requests)).toEqual([]);
  });
});
