/**
 * The lab as an XState inspector, under load (`loopscope lab --inspect`): an app instrumented with
 * @statelyai/inspect's createWebSocketInspector starts 500 actors and sends 10,000 events through the lab's
 * relay; then a page opens (a late joiner: it gets the history) and the time until it lists every actor and
 * has drawn the selected machine's statechart at its active state is measured, against the page opened with
 * a single actor's history (the reference, same run). Then, with all of that loaded, the live latency: an
 * event sent by the app → its new state lit on the chart in the page (p50, p95 of 40 events).
 * Run: npx tsx bench/inspect-receiver.ts   (needs Debian's chromium: .ci/setup-chromium.sh)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebSocketInspector } from '@statelyai/inspect';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { createActor, createMachine } from 'xstate';
import { inspectElement } from '../cli/lab/inspect-element';
import { InspectRelay, inspectUpgrade } from '../cli/lab/inspect-relay';
import { startLabServer } from '../cli/lab/serve';
import { orderMachine } from '../test/fixtures/inspect-app/machines';
import { hasChromium, launchChromium, ROOT } from '../test/browser/harness';

const ACTORS = 500;
const EVENTS = 10_000;
const LIVE = 40;

/** The first actor, the one the page selects: a switch, so every live event lights another state. */
const toggle = createMachine({ id: 'toggle', initial: 'off', states: { off: { on: { FLIP: 'on' } }, on: { on: { FLIP: 'off' } } } });

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

/** Until the relay's counters say `done` (the inspector connects and sends on its own schedule): a poll, bounded. */
async function relayUntil(relay: InspectRelay, done: (stats: InspectRelay['stats']) => boolean, what: string): Promise<void> {
  for (let i = 0; !done(relay.stats); i++) {
    if (i > 6000) throw new Error(`the relay never ${what} (${JSON.stringify(relay.stats)})`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The page's chart lit at `state` (the test's condition: the chart's active path and its leaf node). */
const lit = (page: Page, state: string) =>
  page.waitForFunction(
    (s) => {
      const chart = document.querySelector('[data-testid=inspect-actor-view] [data-testid=statechart]');
      return (
        chart?.getAttribute('data-active') === s &&
        chart.querySelector(`[data-testid=sc-node][data-active=true][data-label="${s}"]`) !== null
      );
    },
    state,
    { polling: 'raf', timeout: 30_000 },
  );

/** Opens the inspector page and waits until it lists `actors` actors and lights the toggle's state; ms. */
async function openPage(page: Page, base: string, actors: number, state: string): Promise<number> {
  await page.goto('about:blank');
  const t0 = performance.now();
  await page.goto(`${base}?inspect=1`);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=inspect-actor]').length >= n, actors, {
    polling: 'raf',
    timeout: 60_000,
  });
  await lit(page, state);
  return performance.now() - t0;
}

async function main(): Promise<void> {
  if (!hasChromium) {
    console.log('\n## Inspector (lab --inspect)\n\nskipped: chromium is not installed (.ci/setup-chromium.sh)');
    return;
  }
  const labDir = mkdtempSync(join(tmpdir(), 'loopscope-bench-lab-'));
  await build({
    configFile: join(ROOT, 'vite.config.ts'),
    root: join(ROOT, 'web'),
    logLevel: 'error',
    build: { outDir: labDir, emptyOutDir: true },
  });
  const chrome = await launchChromium();
  const rows: { name: string; held: number; loadMs: number; p50: number; p95: number }[] = [];
  try {
    const page = await chrome.context.newPage();
    await page.setViewportSize({ width: 1920, height: 1080 });
    for (const load of ['reference', 'loaded'] as const) {
      const relay = new InspectRelay({ maxEvents: 4 * EVENTS, maxBytes: 512 << 20 });
      const server = await startLabServer({
        labDir,
        host: '127.0.0.1',
        port: 0,
        embedded: inspectElement(null),
        upgrade: inspectUpgrade(relay, false),
      });
      const base = `http://127.0.0.1:${server.port}/`;
      const inspector = createWebSocketInspector({ url: `ws://127.0.0.1:${server.port}/inspect` });
      // The library's inspector keeps only its last 200 messages until its socket is open: start the app after.
      await relayUntil(relay, (stats) => stats.senders >= 1, 'saw the inspector connect');
      const sw = createActor(toggle, { inspect: inspector.inspect }).start();
      const orders =
        load === 'loaded'
          ? Array.from({ length: ACTORS - 1 }, () => createActor(orderMachine, { inspect: inspector.inspect }).start())
          : [];
      // 10,000 events in all: ADD keeps an order shopping, so each event is one @xstate.event and one snapshot.
      for (let i = 0; orders.length && i < EVENTS; i++) orders[i % orders.length]!.send({ type: 'ADD', item: `item-${i}` });
      const sent = load === 'loaded' ? ACTORS + 2 * EVENTS : 1;
      await relayUntil(relay, (stats) => stats.received >= sent, `received the app's ${sent} messages`);
      // The first page of the run also fetches and compiles the lab's code (the browser's cache is empty): the
      // reference is opened twice and its second time kept, so both rows time a page with the code cached.
      if (load === 'reference') await openPage(page, base, 1, 'off');
      const loadMs = await openPage(page, base, load === 'loaded' ? ACTORS : 1, 'off');
      const held = relay.stats.held;
      // Live: each FLIP sent → the other state lit on the chart.
      const latencies: number[] = [];
      for (let i = 0; i < LIVE; i++) {
        const t0 = performance.now();
        sw.send({ type: 'FLIP' });
        await lit(page, i % 2 === 0 ? 'on' : 'off');
        latencies.push(performance.now() - t0);
      }
      rows.push({
        name: load === 'loaded' ? `${ACTORS} actors, ${fmt(EVENTS)} events` : '1 actor, no events (reference)',
        held,
        loadMs,
        p50: quantile(latencies, 0.5),
        p95: quantile(latencies, 0.95),
      });
      for (const o of orders) o.stop();
      sw.stop();
      inspector.stop();
      await relay.close();
      await server.close();
    }
  } finally {
    await chrome.close();
    rmSync(labDir, { recursive: true, force: true });
  }
  const reference = rows[0]!;
  console.log('\n## Inspector (lab --inspect): a late-joining page, and live latency\n');
  console.log(
    '| history | messages held by the relay | page opened → every actor listed, chart lit | vs reference | live event → lit, p50 | p95 |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.name} | ${fmt(r.held)} | ${fmt(r.loadMs)} ms | ${fmt(r.loadMs / reference.loadMs, 2)}× | ${fmt(r.p50)} ms | ${fmt(r.p95)} ms |`,
    );
  console.log(
    '\nTargets: 500 actors and 10,000 events loaded and drawn in under 2 s; live event → highlight p95 under 1 s. Chromium headless, 1920×1080.',
  );
}

await main();
