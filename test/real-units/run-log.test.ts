// `loopscope real --log-format json`: one JSON object per line with time, level, msg
// and the structured fields; the text format is the timeline as before. And --metrics/--log-format
// values that are not valid exit 2 with one line, before any daemon is contacted.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RealFrame } from '../../real/hpa-runner';
import { parseMetricsAddress } from '../../real/metrics-server';
import type { FrameFacts } from '../../real/run-facts';
import { verdictOf } from '../../real/run-facts';
import { RunLog, jsonLine } from '../../real/run-log';
import { runInProcess } from '../cli/in-process';

const EPOCH = Date.UTC(2026, 10, 25, 10, 0, 0);

function frame(
  over: Partial<RealFrame> & {
    decision?: { running: number; desired: number; actions: ({ kind: 'create' } | { kind: 'delete'; name: string })[] } | null;
    lastError?: string | null;
    errors?: number;
  },
): RealFrame {
  const { decision = null, lastError = null, errors = 0, ...rest } = over;
  return {
    t: 1_234,
    state: 'comparing',
    phase: 'compare',
    event: 'xstate.done.actor.observe',
    world: { demand: 0, pods: [], apiCalls: 3, unownedTouched: 0 },
    controller: {
      loop: 'incus-hpa',
      policy: 'fixed',
      threshold: 70,
      minPods: 2,
      maxPods: 4,
      pods: { running: 1, starting: 0, stopping: 0 },
      averagePercent: 12,
      decision: decision ? { observedAt: 1_200, averagePercent: 12, ...decision } : null,
      pending: [],
      consecutiveErrors: errors,
      lastError,
    },
    ...rest,
  };
}

function capture(format: 'text' | 'json') {
  const out: string[] = [];
  const err: string[] = [];
  const log = new RunLog({
    format,
    epoch: () => EPOCH,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    textLine: (f) => `TEXT ${f.note}`,
    now: () => new Date(EPOCH + 5),
  });
  return { log, out, err };
}

describe('--log-format json', () => {
  it("a decision frame: time from the run's clock, level, msg = the note, period, verdict, desired, running", () => {
    const { log, out } = capture('json');
    const decision = { running: 1, desired: 2, actions: [{ kind: 'create' as const }] };
    const facts: FrameFacts = { period: 3, verdict: verdictOf(decision), observeMs: 12.5 };
    log.frame(frame({ note: '1 pods < min 2 → create 1', decision }), facts);
    expect(out).toHaveLength(1);
    expect(out[0]!.includes('\n')).toBe(false);
    const rec = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(Object.keys(rec).slice(0, 3)).toEqual(['time', 'level', 'msg']);
    expect(rec).toMatchObject({
      time: '2026-11-25T10:00:01.234Z',
      level: 'info',
      msg: '1 pods < min 2 → create 1',
      period: 3,
      verdict: 'scale_up',
      desired: 2,
      running: 1,
      averagePercent: 12,
      event: 'xstate.done.actor.observe',
      t: 1_234,
    });
  });

  it('act frames carry action, instance and outcome; an error frame is level error with its kind and message', () => {
    const { log, out } = capture('json');
    log.frame(frame({ event: 'xstate.done.actor.createPod', state: 'waiting', phase: 'wait', note: 'created pod-1a' }), {
      period: 4,
      act: { kind: 'create', instance: 'pod-1a', outcome: 'done' },
    });
    log.frame(frame({ event: 'xstate.done.actor.deletePod', note: 'dry run: would delete pod-2b' }), {
      period: 4,
      act: { kind: 'delete', instance: 'pod-2b', outcome: 'dry_run' },
    });
    log.frame(
      frame({
        event: 'xstate.error.actor.observe',
        state: 'backoff',
        phase: 'error',
        note: 'error: cannot reach "x\n" (retry #2)',
        lastError: 'cannot reach "x\n"',
        errors: 2,
      }),
      { period: 5, periodEnded: 'error', error: { actor: 'observe', kind: 'unreachable' } },
    );
    const recs = out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.every((l) => !l.includes('\n'))).toBe(true); // a newline in a message stays escaped
    expect(recs[0]).toMatchObject({ level: 'info', action: 'create', instance: 'pod-1a', outcome: 'done', period: 4 });
    expect(recs[1]).toMatchObject({ action: 'delete', instance: 'pod-2b', outcome: 'dry_run' });
    expect(recs[2]).toMatchObject({
      level: 'error',
      errorActor: 'observe',
      errorKind: 'unreachable',
      error: 'cannot reach "x\n"',
      retry: 2,
      msg: 'error: cannot reach "x\n" (retry #2)',
    });
    expect(recs[0]).not.toHaveProperty('verdict');
  });

  it('frames without a note are not logged (as in the timeline); messages go to stderr as records', () => {
    const { log, out, err } = capture('json');
    log.frame(frame({ event: 'xstate.after.compareTime.incus-hpa.comparing' }), { period: 1 });
    expect(out).toEqual([]);
    log.message('warn', 'config edit ignored: a.yaml: HPA.minPods: expected a number\nsecond line', { file: 'a.yaml' });
    expect(err).toHaveLength(1);
    expect(JSON.parse(err[0]!)).toEqual({
      time: '2026-11-25T10:00:00.005Z',
      level: 'warn',
      msg: 'config edit ignored: a.yaml: HPA.minPods: expected a number\nsecond line',
      file: 'a.yaml',
    });
  });

  it('text stays the timeline and the loopscope: lines', () => {
    const { log, out, err } = capture('text');
    log.header('# incus-hpa · real', 'started', { hpa: 'h' });
    log.frame(frame({ note: 'avg 10% → no scale action' }), { period: 1, verdict: 'hold' });
    log.message('warn', 'edit ignored: a\nb');
    expect(out).toEqual(['# incus-hpa · real', 'TEXT avg 10% → no scale action']);
    expect(err).toEqual(['loopscope: edit ignored: a\nloopscope:   b']);
  });

  it('jsonLine never lets a field overwrite time, level or msg, and drops undefined fields', () => {
    expect(JSON.parse(jsonLine(new Date(EPOCH), 'info', 'm', { msg: 'x', level: 'y', a: undefined, b: null }))).toEqual({
      time: '2026-11-25T10:00:00.000Z',
      level: 'info',
      msg: 'm',
      b: null,
    });
  });
});

describe('--metrics address', () => {
  it('accepts [host:]port with an IP host or localhost; a bare port is loopback', () => {
    expect(parseMetricsAddress('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseMetricsAddress('9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseMetricsAddress(':0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseMetricsAddress('localhost:80')).toEqual({ host: '127.0.0.1', port: 80 });
    expect(parseMetricsAddress('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(parseMetricsAddress('0.0.0.0:9464')).toEqual({ host: '0.0.0.0', port: 9464 }); // said explicitly
  });

  it.each([
    '',
    'abc',
    '127.0.0.1',
    '127.0.0.1:',
    '127.0.0.1:65536',
    '127.0.0.1:-1',
    '::1:9464',
    '[::1]',
    '[127.0.0.1]:9',
    'example.com:9464',
    '256.1.1.1:9',
    '127.0.0.1:9464x',
    ' 9464',
    '1.2.3.4:5:6',
  ])('refuses %j', (text) => {
    expect(parseMetricsAddress(text)).toBeNull();
  });

  it.each([
    ['--metrics', 'example.com:9464'],
    ['--metrics', '127.0.0.1:99999'],
    ['--metrics', 'x'.repeat(500)],
    ['--log-format', 'yaml'],
  ])('%s %s exits 2 with one line, before contacting the daemon', async (flag, value) => {
    const dir = mkdtempSync(join(tmpdir(), 'loopscope-metrics-'));
    const cfg = join(dir, 'hpa.yaml');
    writeFileSync(cfg, 'name: lst-never\nnamePrefix: never-\n');
    // An unreachable remote: had the option been accepted, the run would fail with exit 1 instead.
    const r = await runInProcess(['real', '--config', cfg, '--remote', 'https://127.0.0.1:1', flag, value]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${flag}: expected`);
    expect(lines[0]!.length).toBeLessThan(300);
    expect(r.stdout).toBe('');
  });
});
