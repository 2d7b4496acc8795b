// `loopscope lab <scenario.yaml> <counterexample.json>` end to end: the lab the browser project built
// (build-lab.ts, a temp folder: the test sees the sources as they are, never a stale dist/lab),
// served by the command as a process, opened in chromium at the URL it prints. The counterexample
// `loopscope check --out` wrote opens at its first frame and steps; the user's scenario is listed
// beside the shipped ones and runs; presenter mode and the language reach the page; nothing is
// fetched from anywhere else. The command's refusals and the server alone: test/cli/lab-command.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Trace } from '../../sim/trace';
import { clock } from '../../web/lab/format';
import { labActions, launchChromium, offsite, ROOT, watch, withChromium } from './harness';
import { startLabProcess } from './lab-process';

const dir = mkdtempSync(join(tmpdir(), 'loopscope-lab-browser-'));
/** A scenario the lab does not ship (a renamed copy of a shipped one), with text that would end a script element. */
const SCENARIO = 'my-flapping';
const HOSTILE = '</script><script>window.__pwned = 1</script>';

/** `cli/loopscope lab …` run in `dir` (the files named relative to it), serving the fresh build. */
const startLab = (args: string[]) =>
  startLabProcess([join(ROOT, 'cli/loopscope')], args, dir, { ...process.env, LOOPSCOPE_LAB_DIR: inject('labDir') });

withChromium.describe('loopscope lab: your own files in the built lab (chromium)', () => {
  let chrome: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page;
  let seen: { requests: string[]; errors: string[] };
  let counterexample: string;
  let trace: Trace;
  // Each test opens its own `loopscope lab` process: only the reads are shared, not open().
  const { text, machineId } = labActions(() => ({ page, base: '' }));

  beforeAll(async () => {
    // The counterexample, written as a user would: `loopscope check … --out` (exit 1: the property is violated).
    const check = spawnSync(
      join(ROOT, 'cli/loopscope'),
      ['check', join(ROOT, 'examples/podservice/check-buggy.yaml'), '--out', join(dir, 'cex')],
      { encoding: 'utf8' },
    );
    expect(check.status, check.stderr).toBe(1);
    const written = readdirSync(join(dir, 'cex')).filter((f) => f.includes('.one-pod.'));
    expect(written).toHaveLength(1);
    counterexample = `cex/${written[0]!}`;
    trace = JSON.parse(readFileSync(join(dir, counterexample), 'utf8')) as Trace;
    writeFileSync(
      join(dir, `${SCENARIO}.yaml`),
      readFileSync(join(ROOT, 'scenarios/flapping.yaml'), 'utf8')
        .replace('name: flapping', `name: ${SCENARIO}`)
        .replace(/^description: .*$/m, `description: ${JSON.stringify(HOSTILE)}`),
    );
    chrome = await launchChromium();
    page = await chrome.context.newPage();
    seen = watch(page);
  }, 180_000);
  afterAll(async () => {
    await chrome?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The frame on screen (frame-index "i/n", counted from 1) is frames[index] of the trace: its state and time. */
  async function expectFrame(index: number): Promise<void> {
    expect(await text('frame-index')).toBe(`${index + 1}/${trace.frames.length}`);
    expect(await machineId('state')).toBe(trace.frames[index]!.state);
    expect(await text('time')).toBe(clock(trace.frames[index]!.t));
  }

  it('the counterexample opens at its first frame, steps forward, and the scenario is listed and runs', async () => {
    const lab = startLab([counterexample, `${SCENARIO}.yaml`]);
    try {
      const url = await lab.url;
      expect(new URL(url).search).toBe('?trace=0');
      await page.goto(url);
      await page.waitForSelector('[data-testid="lab"][data-source="trace"][data-loop="kubernetes"]');
      await expectFrame(0);
      expect(await page.getByTestId('page-trace').inputValue()).toBe('0');

      // A step goes to the next phase: the first frame of another phase, shown from that frame.
      const next = trace.frames.findIndex((f) => f.phase !== trace.frames[0]!.phase);
      expect(next).toBeGreaterThan(0);
      const before = [await machineId('state'), await text('time')];
      await page.getByTestId('btn-step').click();
      await expectFrame(next);
      expect([await machineId('state'), await text('time')]).not.toEqual(before);
      expect(await page.getByTestId('view-error').count()).toBe(0);

      // The user's scenario beside the shipped ones (under its loop), its hostile description inert.
      const option = page.locator(`[data-testid="scenario-select"] optgroup[label="incus-hpa"] option[value="${SCENARIO}"]`);
      expect(await option.count()).toBe(1);
      expect(await page.evaluate(() => (window as Window & { __pwned?: number }).__pwned)).toBeUndefined();
      await page.getByTestId('scenario-select').selectOption(SCENARIO);
      await page.waitForSelector('[data-testid="lab"][data-source="sim"][data-loop="incus-hpa"]');
      expect(new URL(page.url()).searchParams.get('scenario')).toBe(SCENARIO);
      expect(new URL(page.url()).searchParams.get('trace')).toBeNull();
      expect(await text('time')).toBe('0:00');
      // It runs: stepping reaches later virtual time (a flapping load, phase by phase).
      for (let i = 0; i < 40 && (await text('time')) === '0:00'; i++) await page.getByTestId('btn-step').click();
      expect(await text('time')).not.toBe('0:00');
      expect(await page.getByTestId('scenario-error').count()).toBe(0);
      expect(await page.getByTestId('view-error').count()).toBe(0);
    } finally {
      lab.child.kill('SIGINT');
    }
    expect(await lab.exit).toBe(0);
  }, 120_000);

  it('scenario first, --presenter --lang pt-BR: the scenario opens in presenter mode in Portuguese; the trace opens from the bar and by its link', async () => {
    const lab = startLab([`${SCENARIO}.yaml`, counterexample, '--presenter', '--lang', 'pt-BR']);
    try {
      const url = await lab.url;
      expect(new URL(url).search).toBe(`?loop=incus-hpa&scenario=${SCENARIO}&presenter=1&lang=pt-BR`);
      await page.goto(url);
      await page.waitForSelector('[data-testid="lab"][data-source="sim"][data-loop="incus-hpa"]');
      expect(await page.getByTestId('app').getAttribute('data-lang')).toBe('pt-BR');
      expect(await page.getByTestId('app').getAttribute('class')).toContain('presenter');
      // Presenter mode hides the bar; Escape leaves it.
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="app"]:not(.presenter)');

      await page.getByTestId('page-trace').selectOption('0');
      await page.waitForSelector('[data-testid="lab"][data-source="trace"][data-loop="kubernetes"]');
      await expectFrame(0);
      expect(new URL(page.url()).searchParams.get('trace')).toBe('0');
      expect(new URL(page.url()).searchParams.get('scenario')).toBeNull();

      // The address bar's link opens the same trace again (a reload), and a trace the page lacks is said so.
      await page.reload();
      await page.waitForSelector('[data-testid="lab"][data-source="trace"]');
      await expectFrame(0);
      await page.goto(new URL('?trace=5', url).href);
      expect(await text('url-problems')).toMatch(/trace=5: no such trace \(this page carries 1 trace file\)/);
    } finally {
      lab.child.kill('SIGTERM');
    }
    expect(await lab.exit).toBe(0);
  }, 120_000);

  it('fetched nothing from elsewhere and made no console errors', () => {
    expect(offsite(seen.requests)).toEqual([]);
    expect(seen.errors).toEqual([]);
  });
});
