// Live mode in chromium: the lab opened with ?live= on a real `loopscope real --step --live`
// (a process against the real Incus daemon, no mock), whose socket speaks XState's inspection
// protocol with the loopscope.* layer beside it. The pending act shows with Approve/Skip; Approve in
// the page creates the pod, and the world view counts it; the actors come from the inspection.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { LabServer } from '../../cli/lab/serve';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IncusClient } from '../../real/incus';
import type { LiveRun } from '../real/live-run';
import { startLiveRun, writeLiveConfig } from '../real/live-run';
import { requires } from '../prerequisites';
import { cleanupOwned, deleteLease, ownedInstances, socketPath, uniqueHpa } from '../real/real-helpers';
import { launchChromium, offsite, startLab, watch } from './harness';

const withChromiumAndIncus = await requires('chromium', 'incus');
const hpa = uniqueHpa('bl');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-browser-live-'));

withChromiumAndIncus.describe('live mode in the lab (chromium + real Incus)', () => {
  let server: LabServer;
  let base: string;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let seen: ReturnType<typeof watch>;
  let run: LiveRun;
  let client: IncusClient;

  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
    [{ server, url: base }, chrome, run] = await Promise.all([
      startLab(),
      launchChromium(),
      startLiveRun(writeLiveConfig(dir, hpa, 1, 2), ['--step']),
    ]);
    page = await chrome.context.newPage();
    seen = watch(page);
  }, 90_000);
  afterAll(async () => {
    await run?.stop();
    await chrome?.close();
    await server?.close();
    if (client) {
      await cleanupOwned(client, hpa.name);
      await deleteLease(client, hpa.name);
      await client.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('?live= connects, shows the pending create, and Approve creates the pod the world view counts', async () => {
    await page.goto(`${base}?live=${encodeURIComponent(run.url)}`);
    await page.getByTestId('live-pending').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('live').getAttribute('data-status')).toBe('open');
    expect(await page.getByTestId('live-pending').getAttribute('data-kind')).toBe('create');
    expect(await page.getByTestId('live-pending-text').innerText()).toContain('pods < min 1');
    // The same lab as a loaded trace: banner, statechart of incusHpaMachine, world view.
    expect(await page.getByTestId('lab').getAttribute('data-source')).toBe('trace');
    expect(await page.getByTestId('phase').getAttribute('data-phase')).toBe('act');
    await page.getByTestId('statechart').waitFor();
    expect(await page.getByTestId('pods-running').innerText()).toBe('0');
    // The machine's XState inspection, read by the inspector page's code: the root actor and its invoked ones.
    const root = page.locator('[data-testid="live-actors"] [data-testid="inspect-actor"][data-name="incus-hpa"]');
    expect(await root.count()).toBe(1);
    const rootId = await root.getAttribute('data-session');
    expect(
      await page.locator(`[data-testid="live-actors"] [data-testid="inspect-actor"][data-parent="${rootId}"][data-name="observe"]`).count(),
    ).toBeGreaterThan(0);
    // Following the run: the newest frame is "the present", not the past of a loaded trace.
    expect(await page.getByTestId('viewing-past').count()).toBe(0);
    expect(await ownedInstances(client, hpa.name)).toEqual([]);

    await page.getByTestId('live-approve').click();
    await page.getByTestId('live-pending').waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="pods-running"]')?.textContent === '1', undefined, {
      timeout: 30_000,
    });
    const owned = await ownedInstances(client, hpa.name);
    expect(owned).toHaveLength(1);
    expect(await page.getByTestId('pods').innerText()).toContain(owned[0]!.name);
    expect(run.out.stderr).toContain(`approved in the browser: create ${owned[0]!.name}`);
    expect(offsite(seen.requests)).toEqual([]);
    expect(seen.errors).toEqual([]);
  }, 60_000);

  it('the Live entry takes a pasted address and refuses one outside 127.0.0.1 without connecting', async () => {
    await page.goto(base);
    await page.getByTestId('live-open').click();
    await page.getByTestId('live-url').fill('ws://example.org:1234/?token=abc');
    await page.getByTestId('live-connect').click();
    expect(await page.getByTestId('live-error').innerText()).toContain('expected host 127.0.0.1');
    expect(await page.getByTestId('live').getAttribute('data-status')).toBe('idle');
    expect(offsite(seen.requests)).toEqual([]);
  });
});
