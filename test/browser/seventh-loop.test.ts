// The seventh loop (a room thermostat, test/seventh-loop/) in the lab: the copy of the repository it
// was added to builds its lab as `npm run build` does, and the page shows the loop through its own
// registry entries — its home card, world view, banner and statechart labels — in both languages.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LabServer } from '../../cli/lab/serve';
import { startLabServer } from '../../cli/lab/serve';
import type { Workspace } from '../seventh-loop/workspace';
import { seventhLoopWorkspace } from '../seventh-loop/workspace';
import { labActions, launchChromium, watch, withChromium } from './harness';

withChromium.describe('a seventh loop in the lab (chromium)', () => {
  let ws: Workspace;
  let labDir: string;
  let server: LabServer;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let base: string;
  let seen: ReturnType<typeof watch>;

  beforeAll(async () => {
    ws = seventhLoopWorkspace();
    labDir = mkdtempSync(join(tmpdir(), 'loopscope-seventh-lab-'));
    await build({
      configFile: join(ws.dir, 'vite.config.ts'),
      root: join(ws.dir, 'web'),
      logLevel: 'error',
      build: { outDir: labDir, emptyOutDir: true },
    });
    server = await startLabServer({ labDir, host: '127.0.0.1', port: 0, embedded: '' });
    base = `http://127.0.0.1:${server.port}/`;
    chrome = await launchChromium();
    page = await chrome.context.newPage();
    seen = watch(page);
  }, 240_000);
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
    if (labDir) rmSync(labDir, { recursive: true, force: true });
    ws?.remove();
  });

  const { text, attr, machineId, open, stepUntil } = labActions(() => ({ page, base }));

  it('has a card on the home timeline that opens its scenarios', async () => {
    await page.goto(base);
    await page.getByTestId('home').waitFor();
    expect(await page.getByTestId('loop-card-thermostat').innerText()).toMatch(/thermostat[\s\S]*the room’s temperature/);
    await page.getByTestId('open-thermostat-morning').click();
    await page.getByTestId('lab').waitFor();
    expect(page.url()).toContain('scenario=thermostat-morning');
  });

  it('draws its world, banner and statechart from its own entries, and steps', async () => {
    await open('?loop=thermostat&scenario=thermostat-morning');
    expect(await attr('thermostat-room', 'data-temperature')).toBe('14');
    expect(await machineId('state')).toBe('observing');
    expect(await text('state')).toBe('reading the room');
    await page.locator('[data-testid="sc-node"]').first().waitFor();
    const nodes = await page
      .locator('[data-testid="sc-node"]')
      .evaluateAll((els) =>
        els.map((e): [string, string] => [e.getAttribute('data-label') ?? '', e.querySelector('.sc-label')?.textContent ?? '']),
      );
    expect(new Map(nodes)).toEqual(
      new Map([
        ['observing', '● reading the room'],
        ['comparing', 'comparing with the band'],
        ['acting', 'switching the heater'],
        ['waiting', 'waiting for the next reading'],
      ]),
    );
    await stepUntil(async () => (await attr('thermostat-room', 'data-heater')) === 'on');
    expect(await text('observed')).toBe('the room reads 14 °C');
    expect(await text('compared')).toBe('band 19–21 °C');
    expect(await text('acted')).toBe('heater on');
    expect(seen.errors).toEqual([]);
  });

  it('speaks Portuguese through the same entries', async () => {
    await open('?loop=thermostat&scenario=thermostat-morning&lang=pt-BR');
    expect(await text('state')).toBe('lendo a sala');
    await stepUntil(async () => (await attr('thermostat-room', 'data-heater')) === 'on');
    expect(await text('observed')).toBe('a sala marca 14 °C');
    expect(await text('thermostat-room')).toContain('aquecedor ligado');
  });
});
