// `loopscope real --metrics … --log-format json` against the REAL daemon: the
// command serves /metrics on loopback while it runs; the scrape parses as the text exposition format
// 0.0.4, its counters move with the run (periods, decisions, acts, observe latency, owned pods, the
// lease held, a wake-up), and every stdout/stderr line is one JSON object.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { IncusClient } from '../../real/incus';
import type { Exposition } from './prom-text';
import { checkHistogram, parseExposition, select, valueOf } from './prom-text';
import { connectForSuite, expectConforms, forceDelete, ownedInstances, startCli, uniqueHpa, waitUntil, withIncus } from './real-helpers';

const hpa = uniqueHpa('mx');

async function scrape(url: string): Promise<{ exposition: Exposition; contentType: string | null }> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return { exposition: parseExposition(await res.text()), contentType: res.headers.get('content-type') };
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const rec = JSON.parse(l) as Record<string, unknown>; // throws on a line that is not one JSON object
      expect(Object.keys(rec).slice(0, 3)).toEqual(['time', 'level', 'msg']);
      expect(Number.isFinite(Date.parse(String(rec['time'])))).toBe(true);
      return rec;
    });

withIncus.describe('real HPA: --metrics and --log-format json', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });

  it('serves Prometheus text on loopback whose counters move with the run; logs are JSON lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopscope-metrics-'));
    const cfg = join(dir, 'hpa.yaml');
    writeFileSync(
      cfg,
      [
        'HPA: { minPods: 2, maxPods: 2, memoryThreshold: 50 }',
        `name: ${hpa.name}`,
        `namePrefix: ${hpa.prefix}`,
        'policy: fixed',
        'period: 15s',
        'limitsMemory: 64MiB',
        'backoff: { initial: 300ms, max: 2s }',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'run.json');
    const run = startCli(['real', '--config', cfg, '--metrics', '127.0.0.1:0', '--log-format', 'json', '--out', out]);
    try {
      const url = await waitUntil(
        'the metrics URL',
        async () => {
          const rec = jsonLines(run.out.stderr).find((r) => typeof r['metrics'] === 'string');
          return rec ? String(rec['metrics']) : undefined;
        },
        20_000,
        50,
      );
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const running = async () => (await ownedInstances(client, hpa.name)).filter((i) => i.status === 'Running');
      await waitUntil('2 running', async () => (await running()).length === 2, 40_000);
      await waitUntil(
        'the period done',
        async () => valueOf((await scrape(url)).exposition, 'loopscope_hpa_periods_total', { outcome: 'done' }) >= 1,
        10_000,
        100,
      );

      const first = await scrape(url);
      expect(first.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
      const e = first.exposition;
      const on = { hpa: hpa.name };
      expect(e.types.get('loopscope_hpa_periods_total')).toBe('counter');
      expect(e.types.get('loopscope_hpa_observe_duration_seconds')).toBe('histogram');
      expect(e.types.get('loopscope_hpa_owned_pods')).toBe('gauge');
      expect(valueOf(e, 'loopscope_hpa_decisions_total', { ...on, verdict: 'scale_up' })).toBe(1);
      expect(valueOf(e, 'loopscope_hpa_acts_total', { ...on, kind: 'create', outcome: 'done' })).toBe(2);
      expect(valueOf(e, 'loopscope_hpa_owned_pods', { ...on, status: 'Running' })).toBe(0); // the first observe saw none yet
      const h1 = checkHistogram(e, 'loopscope_hpa_observe_duration_seconds', on);
      expect(h1.count).toBe(1);
      expect(h1.sum).toBeGreaterThan(0);
      expect(h1.sum).toBeLessThan(5);
      // The lease: this process leads; its holder names it.
      const lease = select(e, 'loopscope_hpa_lease_holder', on);
      expect(lease).toHaveLength(1);
      expect(lease[0]!.value).toBe(1);
      expect(lease[0]!.labels['holder']).toMatch(/_\d+_[0-9a-f]{6}$/);
      expect(valueOf(e, 'loopscope_hpa_events_connected', on)).toBe(1);
      expect(valueOf(e, 'loopscope_hpa_errors_total', on)).toBe(0);

      // A pod deleted from outside: the event wakes the loop (15 s period), it observes and replaces.
      const victim = (await running())[0]!.name;
      await forceDelete(client, victim);
      await waitUntil(
        'replaced',
        async () => (await running()).length === 2 && !(await running()).some((i) => i.name === victim),
        10_000,
        100,
      );
      const second = await waitUntil(
        'the period after the wake done',
        async () => {
          const s = (await scrape(url)).exposition;
          return valueOf(s, 'loopscope_hpa_periods_total', { ...on, outcome: 'done' }) >= 2 ? s : undefined;
        },
        10_000,
        100,
      );
      expect(valueOf(second, 'loopscope_hpa_wakeups_total', on)).toBeGreaterThanOrEqual(1);
      expect(valueOf(second, 'loopscope_hpa_acts_total', { ...on, kind: 'create', outcome: 'done' })).toBe(3);
      expect(checkHistogram(second, 'loopscope_hpa_observe_duration_seconds', on).count).toBeGreaterThanOrEqual(2);
      // Another period observes 2 running (a third wake or a period is not needed for this: the
      // woken period saw 1 running and created 1; the gauge is what that observe saw).
      expect(valueOf(second, 'loopscope_hpa_owned_pods', { ...on, status: 'Running' })).toBeGreaterThanOrEqual(1);

      expect((await fetch(url.replace('/metrics', '/'))).status).toBe(404);
      expect((await fetch(url, { method: 'POST' })).status).toBe(405);

      // Every line the command wrote is one JSON object; the decisions carry their fields.
      const out = jsonLines(run.out.stdout);
      expect(out[0]).toMatchObject({ level: 'info', msg: 'started', hpa: hpa.name, policy: 'fixed' });
      expect(out.find((r) => r['verdict'] === 'scale_up')).toMatchObject({ period: 1, desired: 2, running: 0 });
      expect(out.filter((r) => r['action'] === 'create' && r['outcome'] === 'done' && typeof r['instance'] === 'string')).toHaveLength(3);
      jsonLines(run.out.stderr);
    } finally {
      run.child.kill('SIGTERM');
      const done = await run.done;
      expect(done.code).toBe(0);
      jsonLines(done.stderr);
      await Promise.all((await ownedInstances(client, hpa.name)).map((i) => forceDelete(client, i.name)));
    }
    expectConforms(out); // the trace written on SIGTERM: the outside delete is one the model explains
  }, 120_000);
});
