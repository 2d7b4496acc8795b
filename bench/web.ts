/**
 * The web lab's benchmark (the lab must stay smooth when projected in a talk): headless chromium plays the HPA scenario with 200 pods
 * at 50× in presenter mode at 1920×1080 and counts requestAnimationFrame callbacks per second in the
 * page (median fps); the gzipped JS of a production build; the time from page load to the first
 * step; and the time from a cold `npm start` (a new vite dev server process) to the first step.
 * Run: npx tsx bench/web.ts   (needs Debian's chromium: .ci/setup-chromium.sh)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, preview } from 'vite';
import { buildLabHtml } from '../cli/export/lab-html';
import { CHROMIUM, hasChromium, launchChromium, ROOT } from '../test/browser/harness';

const SECONDS = Number(process.env.BENCH_WEB_SECONDS ?? 10);
const SPEED = 50;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
// Passed as text: tsx would wrap a named function in a helper the page does not have.
const FPS = `new Promise((resolve) => {
  const counts = []; let frames = 0; let windowStart = performance.now();
  const tick = (now) => {
    frames++;
    if (now - windowStart >= 1000) { counts.push((frames * 1000) / (now - windowStart)); frames = 0; windowStart = now; }
    if (counts.length < ${SECONDS}) requestAnimationFrame(tick); else resolve(counts);
  };
  requestAnimationFrame(tick);
})`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function bundleSizes(outDir: string) {
  await build({
    configFile: join(ROOT, 'vite.config.ts'),
    root: join(ROOT, 'web'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true },
  });
  const assets = join(outDir, 'assets');
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  let total = 0;
  let initial = 0;
  for (const f of readdirSync(assets).filter((x) => x.endsWith('.js'))) {
    const gz = gzipSync(readFileSync(join(assets, f))).length;
    total += gz;
    // Chunks the page loads before anything else (the entry and its modulepreloads).
    if (html.includes(`/assets/${f}`)) initial += gz;
  }
  return { total, initial };
}

/** `npm start` as a new process (vite's dev server, its dependency cache as left on disk), then the
 * page opened and one step done: what a speaker waits for. */
async function coldStartToFirstStep(chrome: Awaited<ReturnType<typeof launchChromium>>): Promise<number> {
  const started = Date.now();
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), '--port', '5291', '--strictPort', '--open=false'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''));
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`vite exited (${code}): ${out}`)));
    });
    const page = await chrome.context.newPage();
    await page.goto(`${url}?loop=incus-hpa&scenario=talk-lab`, { timeout: 300_000 });
    await page.getByTestId('lab').waitFor({ timeout: 300_000 });
    await page.getByTestId('btn-step').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="phase"]')?.getAttribute('data-phase') !== 'observe');
    const ms = Date.now() - started;
    await page.close();
    return ms;
  } finally {
    child.kill();
  }
}

async function main() {
  if (!hasChromium) {
    console.error(`bench/web.ts: ${CHROMIUM} is missing (run .ci/setup-chromium.sh)`);
    process.exit(1);
  }
  const outDir = mkdtempSync(join(tmpdir(), 'loopscope-web-'));
  const sizes = await bundleSizes(outDir);
  // `npm run export`'s one-file lab (script and styles inlined): what a slide deck carries.
  const exported = Buffer.from(await buildLabHtml({ state: 'loop=incus-hpa&scenario=talk-lab' }));
  const server = await preview({
    configFile: join(ROOT, 'vite.config.ts'),
    root: join(ROOT, 'web'),
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not report a TCP address');
  const chrome = await launchChromium();
  try {
    const cold = await coldStartToFirstStep(chrome);
    // The reference in the same run: an empty page's requestAnimationFrame rate on this (possibly loaded) machine.
    const blank = await chrome.context.newPage();
    await blank.setViewportSize({ width: 1920, height: 1080 });
    await blank.setContent('<!doctype html><title>reference</title><body></body>');
    const baseline = (await blank.evaluate(FPS)) as number[];
    await blank.close();
    const page = await chrome.context.newPage();
    await page.setViewportSize({ width: 1920, height: 1080 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const started = Date.now();
    await page.goto(`http://127.0.0.1:${address.port}/?loop=incus-hpa&scenario=bench-200-pods&presenter=1`);
    await page.getByTestId('lab').waitFor();
    const ready = Date.now() - started;
    await page.getByTestId('btn-step').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="phase"]')?.getAttribute('data-phase') !== 'observe');
    const firstStep = Date.now() - started;
    const pods = await page.getByTestId('pod').count();

    await page.getByTestId('speed').selectOption(String(SPEED));
    await page.getByTestId('btn-play').click();
    const perSecond = (await page.evaluate(FPS)) as number[];
    const virtual = await page.getByTestId('time').innerText();
    const podsAfter = await page.getByTestId('pod').count();
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);

    const rows: [string, string, string][] = [
      ['median fps (presenter 1920×1080, 200 pods, 50×)', median(perSecond).toFixed(1), '≥ 55'],
      ['min / max fps', `${Math.min(...perSecond).toFixed(1)} / ${Math.max(...perSecond).toFixed(1)}`, ''],
      ['reference: empty page median fps (same run)', median(baseline).toFixed(1), ''],
      ['lab / empty page', `${(median(perSecond) / median(baseline)).toFixed(2)}×`, ''],
      ['pods drawn (start → end)', `${pods} → ${podsAfter}`, ''],
      [`virtual time after ${SECONDS} s`, virtual, ''],
      ['JS gzipped, all chunks', kb(sizes.total), '≤ 500 KB'],
      ['JS gzipped, loaded at start', kb(sizes.initial), ''],
      ['exported HTML (npm run export), raw / gzipped', `${kb(exported.length)} / ${kb(gzipSync(exported).length)}`, ''],
      ['page load → lab ready', `${ready} ms`, ''],
      ['page load → first step done', `${firstStep} ms`, ''],
      ['cold npm start → first step done', `${cold} ms`, ''],
    ];
    const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length))];
    console.log(`\nweb lab (headless ${CHROMIUM}, ${SECONDS} s of play)\n`);
    for (const [k, v, target] of rows) console.log(`${k.padEnd(w[0]!)}  ${v.padStart(w[1]!)}  ${target}`);
  } finally {
    await chrome.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
