// The lab as an offline inspector (`loopscope lab --inspect`) in chromium: the fixture XState app
// (test/fixtures/inspect-app: an order that invokes a payment machine and a receipt promise), run
// here in Node with @statelyai/inspect's createWebSocketInspector, sends to the lab's relay; the page
// lists the actors as a tree, draws each machine's statechart laid out in the page, lights the active
// state within 1 s of each event (measured: event sent → highlight seen), logs the events with their
// source, scrubs back to earlier snapshots; a page opened after the run gets the history, and a page
// that joins after the bounded history was cut says how much was dropped.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { inspectElement } from '../../cli/lab/inspect-element';
import { InspectRelay, inspectUpgrade } from '../../cli/lab/inspect-relay';
import type { LabServer } from '../../cli/lab/serve';
import { startLabServer } from '../../cli/lab/serve';
import type { InspectApp } from '../fixtures/inspect-app/app';
import { startInspectApp } from '../fixtures/inspect-app/app';
import { englishIn } from './english';
import { galleryPath, launchChromium, offsite, watch, withChromium } from './harness';

/** A lab with the relay on its port, as `loopscope lab --inspect` serves it. */
async function inspectLab(maxEvents: number): Promise<{ server: LabServer; relay: InspectRelay; base: string; appUrl: string }> {
  const relay = new InspectRelay({ maxEvents, maxBytes: 64 << 20 });
  const server = await startLabServer({
    labDir: inject('labDir'),
    host: '127.0.0.1',
    port: 0,
    embedded: inspectElement(null),
    upgrade: inspectUpgrade(relay, false),
  });
  return { server, relay, base: `http://127.0.0.1:${server.port}/`, appUrl: `ws://127.0.0.1:${server.port}/inspect` };
}

const chartActive = (page: Page) => page.getAttribute('[data-testid=inspect-actor-view] [data-testid=statechart]', 'data-active');

/** Waits until the shown chart lights `state` (the chart's active path and its leaf node); returns the ms from `since`. */
async function lit(page: Page, state: string, since: number): Promise<number> {
  const leaf = state.split('.').at(-1);
  await page.waitForFunction(
    ([s, l]) => {
      const chart = document.querySelector('[data-testid=inspect-actor-view] [data-testid=statechart]');
      return (
        chart?.getAttribute('data-active') === s &&
        chart.querySelector(`[data-testid=sc-node][data-active=true][data-label="${l}"]`) !== null
      );
    },
    [state, leaf] as const,
    { polling: 'raf', timeout: 10_000 },
  );
  return performance.now() - since;
}

const actorButton = (page: Page, name: string) => page.locator(`[data-testid=inspect-actor][data-name="${name}"]`);

withChromium.describe('the lab as an inspector of any XState app (chromium)', () => {
  let lab: Awaited<ReturnType<typeof inspectLab>>;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let seen: ReturnType<typeof watch>;
  let app: InspectApp | undefined;
  const latencies: Record<string, number> = {};

  beforeAll(async () => {
    [lab, chrome] = await Promise.all([inspectLab(10_000), launchChromium()]);
    page = await chrome.context.newPage();
    seen = watch(page);
  }, 90_000);
  afterAll(async () => {
    app?.stop();
    await chrome?.close();
    await lab?.relay.close();
    await lab?.server.close();
  });

  it('lists both actors by parent, draws both charts, lights each new state within 1 s, logs the events, scrubs back', async () => {
    await page.goto(`${lab.base}?inspect=1`);
    await page.waitForSelector('[data-testid=inspect][data-status=open]');
    expect(await page.textContent('[data-testid=inspect-app-url]')).toBe(lab.appUrl);
    app = startInspectApp(lab.appUrl);
    const order = app.order;

    // The order, a root, selected by default (the first actor with a machine); its chart lit at its initial state.
    await actorButton(page, 'order').waitFor();
    expect(await actorButton(page, 'order').getAttribute('data-parent')).toBe('');
    await lit(page, 'shopping', performance.now());
    for (const state of ['shopping', 'checkout', 'receipt', 'done'])
      await page.locator(`[data-testid=sc-node][data-label="${state}"]`).waitFor();

    let t0 = performance.now();
    order.send({ type: 'ADD', item: 'book' });
    await page.waitForFunction(() => document.querySelector('[data-testid=inspect-context]')?.textContent?.includes('"book"'), undefined, {
      polling: 'raf',
    });
    latencies.ADD = performance.now() - t0;
    t0 = performance.now();
    order.send({ type: 'CHECKOUT' });
    latencies.CHECKOUT = await lit(page, 'checkout', t0);

    // The payment, invoked by the order: under it in the tree; its own chart when selected.
    const payment = actorButton(page, 'payment');
    await payment.waitFor();
    const orderId = await actorButton(page, 'order').getAttribute('data-session');
    expect(await payment.getAttribute('data-parent')).toBe(orderId);
    expect(
      await page
        .locator('li', { has: actorButton(page, 'order') })
        .locator('[data-testid=inspect-actor][data-name=payment]')
        .count(),
    ).toBe(1);
    await payment.click();
    await lit(page, 'idle', performance.now());
    for (const state of ['idle', 'authorizing', 'paid']) await page.locator(`[data-testid=sc-node][data-label="${state}"]`).waitFor();
    t0 = performance.now();
    order.send({ type: 'PAY' });
    latencies.PAY = await lit(page, 'authorizing', t0);
    t0 = performance.now();
    order.send({ type: 'APPROVE' });
    latencies.APPROVE = await lit(page, 'paid', t0);
    for (const [event, ms] of Object.entries(latencies)) expect({ event, ms, under1s: ms < 1000 }).toMatchObject({ event, under1s: true });
    console.log(
      `inspect: event sent → highlight in the page (ms): ${Object.entries(latencies)
        .map(([e, ms]) => `${e} ${ms.toFixed(0)}`)
        .join(', ')}`,
    );

    // The order went on to its receipt (a promise actor: listed with its status and output, no chart) and done.
    const receipt = page.locator('[data-testid=inspect-actor][data-name=receipt][data-status=done]');
    await receipt.waitFor();
    expect(await receipt.getAttribute('data-parent')).toBe(orderId);
    await receipt.click();
    await page.waitForSelector('[data-testid=inspect-no-chart]');
    expect(await page.textContent('[data-testid=inspect-output]')).toContain('receipt for 1 item(s)');
    await actorButton(page, 'order').click();
    await lit(page, 'done', performance.now());

    // The events, newest last, with source → target: PAY went from the order to the payment.
    const paymentId = await payment.getAttribute('data-session');
    const rows = page.locator('[data-testid=inspect-event]');
    const types = await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-type')));
    expect(types.indexOf('ADD')).toBeLessThan(types.indexOf('CHECKOUT'));
    expect(types.indexOf('CHECKOUT')).toBeLessThan(types.indexOf('PAY'));
    expect(
      await page.locator(`[data-testid=inspect-event][data-type=PAY][data-source="${orderId}"][data-target="${paymentId}"]`).count(),
    ).toBe(1);

    // Scrubbing back: the first snapshot shows the initial state and its context, the chart follows the scrubber.
    const scrubber = page.locator('[data-testid=inspect-scrubber]');
    await scrubber.focus();
    await page.keyboard.press('Home');
    await lit(page, 'shopping', performance.now());
    expect(await page.getAttribute('[data-testid=inspect-actor-view]', 'data-index')).toBe('0');
    expect(JSON.parse((await page.textContent('[data-testid=inspect-context]')) ?? 'null')).toEqual({ items: [], receipt: null });
    // The log dims what came after the snapshot shown.
    expect(await page.getAttribute('[data-testid=inspect-event][data-type=CHECKOUT]', 'class')).toBe('inspect-later');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await chartActive(page)).not.toBe('done');
    await page.click('[data-testid=inspect-follow]');
    await lit(page, 'done', performance.now());
    expect(await page.locator('[data-testid=inspect-event].inspect-later').count()).toBe(0);
    await actorButton(page, 'payment').click();
    await lit(page, 'paid', performance.now());
    await page.screenshot({ path: galleryPath('inspect'), fullPage: true });

    expect(offsite(seen.requests)).toEqual([]);
    expect(seen.errors).toEqual([]);
  });

  it("a page opened after the run gets the whole history (here in pt-BR, from the top bar's Inspector button)", async () => {
    const shown = await page.locator('[data-testid=inspect-event]').count();
    const late = await chrome.context.newPage();
    const lateSeen = watch(late);
    try {
      await late.goto(`${lab.base}?lang=pt-BR`);
      await late.click('[data-testid=inspect-open]');
      expect(new URL(late.url()).searchParams.get('inspect')).toBe('1');
      await actorButton(late, 'payment').waitFor();
      await late.waitForFunction((n) => document.querySelectorAll('[data-testid=inspect-event]').length === n, shown);
      await lit(late, 'done', performance.now());
      await actorButton(late, 'payment').click();
      await lit(late, 'paid', performance.now());
      expect(await late.locator('[data-testid=inspect-dropped]').count()).toBe(0);
      // The page's own words in Portuguese: no English left in its visible text (the app's ids and code aside).
      const texts = await late.evaluate(() => {
        const out: string[] = [];
        const walker = document.createTreeWalker(document.querySelector('[data-testid=inspect]') ?? document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement;
          if (
            !el ||
            el.closest('code, pre, [data-testid=sc-node], .sc-edge-label, [data-testid=inspect-actor], [data-testid=inspect-event]')
          )
            continue;
          const text = (n.textContent ?? '').trim();
          if (text) out.push(text);
        }
        return out;
      });
      expect(texts).toContain('Atores');
      expect(
        texts.flatMap((t) => {
          const hit = englishIn(t);
          return hit ? [`${t}: ${hit.why}`] : [];
        }),
      ).toEqual([]);
      expect(lateSeen.errors).toEqual([]);
    } finally {
      await late.close();
    }
  });

  it('a parallel state lights the active state of each region', async () => {
    // Sent as any app's inspector would: a machine with two regions, registered, then a snapshot in both.
    const machine = {
      id: 'player',
      type: 'parallel',
      states: {
        audio: { initial: 'muted', states: { muted: { on: { UNMUTE: 'playing' } }, playing: {} } },
        video: { initial: 'off', states: { off: { on: { START: 'hd' } }, hd: {} } },
      },
    };
    const sender = new WebSocket(lab.appUrl);
    await new Promise<void>((ok, fail) => {
      sender.once('open', () => ok());
      sender.once('error', fail);
    });
    const base = { sessionId: 'p:1', rootId: 'p:1', createdAt: String(Date.now()), _version: 'test' };
    sender.send(
      JSON.stringify({
        ...base,
        type: '@xstate.actor',
        name: 'player',
        definition: JSON.stringify(machine),
        snapshot: { status: 'active', value: { audio: 'muted', video: 'off' } },
      }),
    );
    sender.send(
      JSON.stringify({
        ...base,
        type: '@xstate.snapshot',
        event: { type: 'START' },
        snapshot: { status: 'active', value: { audio: 'muted', video: 'hd' }, context: {} },
      }),
    );
    sender.close();
    await actorButton(page, 'player').click();
    await page.waitForFunction(
      () => {
        const lit = [...document.querySelectorAll('[data-testid=inspect-actor-view] [data-testid=sc-node][data-active=true]')].map((n) =>
          n.getAttribute('data-label'),
        );
        return ['audio', 'muted', 'video', 'hd'].every((l) => lit.includes(l)) && !lit.includes('off');
      },
      undefined,
      { polling: 'raf', timeout: 10_000 },
    );
  });

  it('a page that joins late takes a full default history (10,000 messages) and shows it', async () => {
    const full = await inspectLab(10_000);
    const late = await chrome.context.newPage();
    try {
      // One machine actor and 4,999 event + snapshot pairs: the relay's default bound, exactly.
      const sender = new WebSocket(full.appUrl);
      await new Promise<void>((ok, fail) => {
        sender.once('open', () => ok());
        sender.once('error', fail);
      });
      const definition = JSON.stringify({
        id: 'toggle',
        initial: 'off',
        states: { off: { on: { FLIP: 'on' } }, on: { on: { FLIP: 'off' } } },
      });
      const base = { sessionId: 't:1', rootId: 't:1', _version: 'test' };
      sender.send(
        JSON.stringify({
          ...base,
          type: '@xstate.actor',
          name: 'toggle',
          definition,
          createdAt: '0',
          snapshot: { status: 'active', value: 'off', context: { n: 0 } },
        }),
      );
      for (let i = 1; i < 5000; i++) {
        sender.send(JSON.stringify({ ...base, type: '@xstate.event', event: { type: 'FLIP' }, createdAt: String(i) }));
        sender.send(
          JSON.stringify({
            ...base,
            type: '@xstate.snapshot',
            event: { type: 'FLIP' },
            createdAt: String(i),
            snapshot: { status: 'active', value: i % 2 ? 'on' : 'off', context: { n: i } },
          }),
        );
      }
      sender.close();
      await expect.poll(() => full.relay.stats.received, { timeout: 30_000 }).toBe(9999);
      const t0 = performance.now();
      await late.goto(`${full.base}?inspect=1`);
      await late.waitForSelector('[data-testid=inspect-actor-view][data-count="4999"]', { timeout: 30_000 });
      await lit(late, 'on', t0);
      const ms = performance.now() - t0;
      console.log(`inspect: a late page with 9,999 messages of history: shown in ${ms.toFixed(0)} ms`);
      expect(ms).toBeLessThan(15_000);
    } finally {
      await late.close();
      await full.relay.close();
      await full.server.close();
    }
  });

  it('a page that joins after the bounded history was cut says how many events were dropped', async () => {
    const small = await inspectLab(8);
    const other = startInspectApp(small.appUrl);
    const late = await chrome.context.newPage();
    try {
      other.order.send({ type: 'ADD', item: 'pen' });
      other.order.send({ type: 'CHECKOUT' });
      // The relay's own count is the condition: the run's 10 messages (2 actors, 4 events, 4 snapshots) have reached it.
      await expect.poll(() => small.relay.stats.received, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
      const dropped = small.relay.stats.dropped;
      await late.goto(`${small.base}?inspect=1`);
      const notice = late.locator('[data-testid=inspect-dropped]');
      await notice.waitFor();
      expect(await notice.getAttribute('data-dropped')).toBe(String(dropped));
      expect(await notice.textContent()).toBe(`The first ${dropped} events were dropped (the relay keeps the last 8).`);
    } finally {
      other.stop();
      await late.close();
      await small.relay.close();
      await small.server.close();
    }
  });
});
