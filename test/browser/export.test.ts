import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process';
import { requires } from '../prerequisites';
import { ROOT, useLabPage, watch, withChromium } from './harness';

const withXmllint = await requires('xmllint');

const dir = mkdtempSync(join(tmpdir(), 'loopscope-export-test-'));

/** Well-formed XML by libxml2's xmllint (only in `withXmllint` tests), and the root's declared size. */
function checkSvg(path: string): { width: number; height: number; text: string } {
  const lint = spawnSync('xmllint', ['--noout', path], { encoding: 'utf8' });
  expect(lint.error, `xmllint on ${path}`).toBeUndefined();
  expect(lint.stderr, `xmllint on ${path}`).toBe('');
  expect(lint.status).toBe(0);
  const text = readFileSync(path, 'utf8');
  const root = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(text);
  expect(root, 'the root <svg> declares its width and height').not.toBeNull();
  return { width: Number(root![1]), height: Number(root![2]), text };
}

/** A PNG's signature and its IHDR size. */
function pngSize(path: string): { width: number; height: number } {
  const b = readFileSync(path);
  expect([...b.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(b.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

withChromium.describe("export for slides (npm run export, the lab's Export menu)", () => {
  const lab = useLabPage();

  it('bad input: one line naming the option or file, exit 2, nothing written', async () => {
    const target = join(dir, 'never');
    const aFile = join(dir, 'a-file');
    writeFileSync(aFile, 'x');
    const cases: [string[], RegExp][] = [
      [['scenarios/no-such.yaml'], /no-such\.yaml/],
      [['scenarios'], /scenarios/],
      [['scenarios/flapping.yaml', '--format', 'gif'], /--format: .*html, svg, png.*"gif"/],
      [['scenarios/flapping.yaml', '--format', ''], /--format/],
      [['scenarios/flapping.yaml', '--at', '99h'], /--at: .*ends at 00:40:00/],
      [['scenarios/flapping.yaml', '--at', 'soon'], /--at: .*"soon"/],
      [['scenarios/flapping.yaml', '--lang', 'fr'], /--lang: .*en, pt-BR/],
      [['scenarios/flapping.yaml', '--scale', '9'], /--scale/],
      [['scenarios/flapping.yaml', '--policy', 'bogus'], /policy.*seed, kubernetes, fixed|policy.*bogus/],
    ];
    for (const [args, message] of cases) {
      const r = await runInProcess(['export', ...args, '--out', target]);
      expect(r.code, args.join(' ')).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0]).toMatch(/^loopscope: /);
      expect(lines[0]).toMatch(message);
      expect(r.stdout).toBe('');
    }
    const file = await runInProcess(['export', 'scenarios/flapping.yaml', '--out', aFile]);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/^loopscope: --out: expected a directory/);
    expect(existsSync(target)).toBe(false);
  }, 60_000);

  withXmllint.it(
    'the CLI writes well-formed SVGs, PNGs of twice their size and one HTML lab that opens from file:// with no request',
    async () => {
      // A scenario the lab does not ship: it must travel inside the page.
      const scenario = join(dir, 'my-flapping.yaml');
      writeFileSync(scenario, readFileSync(join(ROOT, 'scenarios/flapping.yaml'), 'utf8').replace('name: flapping', 'name: my-flapping'));
      const out = join(dir, 'out');
      const r = await runInProcess(['export', scenario, '--out', out, '--at', '5m', '--scale', '2']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(readdirSync(out).sort()).toEqual([
        'my-flapping-t300s-chart.png',
        'my-flapping-t300s-chart.svg',
        'my-flapping-t300s-statechart.png',
        'my-flapping-t300s-statechart.svg',
        'my-flapping.html',
      ]);
      for (const kind of ['statechart', 'chart']) {
        const svg = checkSvg(join(out, `my-flapping-t300s-${kind}.svg`));
        expect(pngSize(join(out, `my-flapping-t300s-${kind}.png`))).toEqual({ width: svg.width * 2, height: svg.height * 2 });
        expect(svg.text).toContain('5:00');
      }
      const chart = readFileSync(join(out, 'my-flapping-t300s-statechart.svg'), 'utf8');
      expect(chart).toMatch(/data-state="[^"]+\.waiting" data-active="true"|data-active="true"/);
      expect((readFileSync(join(out, 'my-flapping-t300s-chart.svg'), 'utf8').match(/data-series=/g) ?? []).length).toBe(3);

      // The page: from file://, no network, the scenario and the moment from its hash.
      const url = r.stdout.trim().split('\n').at(-1)!;
      expect(url).toBe(`${pathToFileURL(join(out, 'my-flapping.html')).href}#loop=incus-hpa&scenario=my-flapping&t=300000`);
      const page = await lab.page.context().newPage();
      const seen = watch(page);
      await page.goto(pathToFileURL(join(out, 'my-flapping.html')).href);
      await page.getByTestId('lab').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('lab').getAttribute('data-loop')).toBe('incus-hpa');
      expect(await page.getByTestId('scenario-select').inputValue()).toBe('my-flapping');
      expect(await page.getByTestId('time').textContent()).toBe('5:00');
      // Stepping works and the state moves into the hash (the file has no server to keep a query).
      await page.getByTestId('btn-step').click();
      expect(new URL(page.url()).hash).toMatch(/^#loop=incus-hpa&scenario=my-flapping&t=\d+/);
      expect(
        seen.requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && !u.startsWith(pathToFileURL(out).href)),
      ).toEqual([]);
      expect(seen.errors).toEqual([]);
      await page.close();
    },
    120_000,
  );

  withXmllint.it(
    "the lab's Export menu downloads the statechart and the chart of the frame on screen as SVG and PNG",
    async () => {
      const page = lab.page;
      await page.goto(`${lab.base}?loop=incus-hpa&scenario=flapping&t=300000`, { timeout: 120_000 });
      await page.getByTestId('lab').waitFor({ timeout: 120_000 });
      await page.getByTestId('export-open').click();
      const sizes: Record<string, { width: number; height: number }> = {};
      for (const id of ['statechart-svg', 'statechart-png', 'chart-svg', 'chart-png']) {
        const link = page.getByTestId(`export-${id}`);
        await link.waitFor();
        const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
        expect(download.suggestedFilename()).toBe(`flapping-t300s-${id.replace('-', '.')}`);
        const saved = join(dir, `lab-${download.suggestedFilename()}`);
        await download.saveAs(saved);
        sizes[id] = id.endsWith('svg') ? checkSvg(saved) : pngSize(saved);
      }
      for (const kind of ['statechart', 'chart']) {
        expect(sizes[`${kind}-png`]).toEqual({ width: sizes[`${kind}-svg`]!.width * 2, height: sizes[`${kind}-svg`]!.height * 2 });
      }
      await page.getByTestId('export-close').click();
      expect(await page.getByTestId('export-panel').count()).toBe(0);
      expect(lab.seen.errors).toEqual([]);
    },
    120_000,
  );
});
