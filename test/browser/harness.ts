import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { LabServer } from '../../cli/lab/serve';
import { startLabServer } from '../../cli/lab/serve';
import { CHROMIUM, prerequisite, requires } from '../prerequisites';
import { LOOP_IDS } from '../../sim/loops/registry';

export { CHROMIUM };
export const ROOT = resolve(import.meta.dirname, '../..');

/** Where screenshots go: an ignored folder, so tests never touch tracked files; `npm run gallery`
 * points it at docs/gallery on purpose to refresh the README's pictures. */
export const GALLERY_DIR = resolve(ROOT, process.env.LOOPSCOPE_GALLERY_DIR ?? 'test-results/gallery');
mkdirSync(GALLERY_DIR, { recursive: true });
export const galleryPath = (name: string) => join(GALLERY_DIR, `${name}.png`);
/** For bench/web.ts, which is no suite: the suites use `withChromium`. */
export const hasChromium = (await prerequisite('chromium')) === undefined;
/** The browser suites' gate: without chromium they skip saying why, and in CI they fail instead. */
export const withChromium = await requires('chromium');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The lab the browser project built once (build-lab.ts), served as `loopscope lab` serves it, on
 * 127.0.0.1 at a free port. */
export async function startLab(): Promise<{ server: LabServer; url: string }> {
  const server = await startLabServer({ labDir: inject('labDir'), host: '127.0.0.1', port: 0, embedded: '' });
  return { server, url: `http://127.0.0.1:${server.port}/` };
}

/** Chromium with a fresh profile, so no extension or cache can change what a test sees. */
export async function launchChromium(): Promise<{ browser: Browser; context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'loopscope-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
  });
  return {
    browser: context.browser()!,
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Records every request's URL and every console error / page error of a page. */
export function watch(page: Page): { requests: string[]; errors: string[] } {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url}:${m.location().lineNumber})`);
  });
  page.on('pageerror', (e) => errors.push(e.stack ?? String(e)));
  return { requests, errors };
}

/** Requests whose host is not 127.0.0.1 (data: and blob: URLs never leave the page). */
export function offsite(requests: string[]): string[] {
  return requests.filter((u) => {
    if (u.startsWith('data:') || u.startsWith('blob:')) return false;
    return new URL(u).hostname !== '127.0.0.1';
  });
}

/** What the lab's tests do on its page: read a test id's text or attribute, open a lab URL (and
 * wait for the lab to render), step until a condition holds (at most `max` steps, then it must). */
export interface LabActions {
  text(id: string): Promise<string>;
  attr(id: string, name: string): Promise<string | null>;
  /** The banner's state and event are shown in words; the machine's ids are on data-machine-id. */
  machineId(id: 'state' | 'event'): Promise<string | null>;
  open(query: string, timeoutMs?: number): Promise<void>;
  stepUntil(done: () => Promise<boolean>, max?: number): Promise<void>;
}

/** The actions on the page and base `at()` gives when they run (a suite fills them in beforeAll). */
export function labActions(at: () => { page: Page; base: string }): LabActions {
  return {
    text: (id) => at().page.getByTestId(id).first().innerText(),
    attr: (id, name) => at().page.getByTestId(id).first().getAttribute(name),
    machineId: (id) => at().page.getByTestId(id).first().getAttribute('data-machine-id'),
    async open(query, timeoutMs) {
      const { page, base } = at();
      const wait = timeoutMs === undefined ? {} : { timeout: timeoutMs };
      await page.goto(`${base}${query}`, wait);
      await page.getByTestId('lab').waitFor(wait);
    },
    async stepUntil(done, max = 80) {
      for (let i = 0; i < max && !(await done()); i++) await at().page.getByTestId('btn-step').click();
      expect(await done()).toBe(true);
    },
  };
}

/** A lab server and a chromium page for one test file (inside a `withChromium` suite): started
 * before its tests, closed after them. Fields are filled in by beforeAll; the actions use them. */
export interface LabPage extends LabActions {
  page: Page;
  base: string;
  seen: { requests: string[]; errors: string[] };
}
export function useLabPage(): LabPage {
  const lab = {} as LabPage; // filled in below and by beforeAll, before any test reads it
  Object.assign(
    lab,
    labActions(() => lab),
  );
  let server: LabServer | undefined;
  let chrome: Awaited<ReturnType<typeof launchChromium>> | undefined;
  beforeAll(async () => {
    ({ server, url: lab.base } = await startLab());
    chrome = await launchChromium();
    lab.page = await chrome.context.newPage();
    lab.seen = watch(lab.page);
  }, 90_000);
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });
  return lab;
}

/** The first scenario file of each loop, as the lab lists them (the HPA's is talk-lab), in
 * LOOP_IDS order; `withChecks: false` passes over the *-check-* scenarios (the explorer's). */
export function scenarioPerLoop(options: { withChecks: boolean }): { loop: string; id: string }[] {
  const files = readdirSync(join(ROOT, 'scenarios'))
    .filter((f) => f.endsWith('.yaml') && (options.withChecks || !f.includes('-check-')))
    .sort();
  const loopOf = (f: string) => (parse(readFileSync(join(ROOT, 'scenarios', f), 'utf8')) as { loop?: string } | null)?.loop;
  return LOOP_IDS.flatMap((loop) => {
    const file = loop === 'incus-hpa' ? 'talk-lab.yaml' : files.find((f) => loopOf(f) === loop);
    return file ? [{ loop, id: file.replace(/\.yaml$/, '') }] : [];
  });
}

const TWO_FRAMES = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))';
/** Fonts loaded, two frames drawn since the last change (a resize is observed in the first), a world that fits
 * its parts to the room done fitting (web/worlds/fitCount.ts), and two frames drawn since. */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(`document.fonts.ready.then(() => ${TWO_FRAMES})`);
  await page.waitForFunction(`!document.querySelector('[data-fitting="true"]')`);
  await page.evaluate(TWO_FRAMES);
}
