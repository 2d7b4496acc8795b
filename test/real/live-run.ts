// Starts the real `loopscope real --live` (a child process against the real daemon) and reads
// the address it prints. Shared by test/real/live.test.ts and test/browser/live.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import type { LiveFrame, LiveServerMessage } from '../../sim/live-protocol';
import { dottedState } from '../../sim/trace';
import type { CliRun } from './real-helpers';
import { startCli, waitUntil } from './real-helpers';

export function writeLiveConfig(dir: string, hpa: { name: string; prefix: string }, min = 1, max = 2): string {
  const path = join(dir, `${hpa.name}.yaml`);
  writeFileSync(
    path,
    [
      `HPA: { minPods: ${min}, maxPods: ${max}, memoryThreshold: 50 }`,
      `name: ${hpa.name}`,
      `namePrefix: ${hpa.prefix}`,
      'policy: fixed',
      'period: 1s',
      'limitsMemory: 64MiB',
      'backoff: { initial: 300ms, max: 2s }',
      '',
    ].join('\n'),
  );
  return path;
}

export interface LiveRun {
  url: string;
  out: { stdout: string; stderr: string };
  done: Promise<CliRun>;
  stop(): Promise<CliRun>;
}

/**
 * `loopscope real --config FILE --live 0 [...extra]`; resolves once the address is printed.
 * Another suite may be restarting the shared daemon: a start that exits 1 is retried.
 */
export async function startLiveRun(config: string, extra: string[] = [], attempts = 3): Promise<LiveRun> {
  for (let attempt = 1; ; attempt++) {
    const run = startCli(['real', '--config', config, '--live', '0', ...extra]);
    const url = await Promise.race([
      waitUntil('the live address', async () => /^live: (ws:\S+)$/m.exec(run.out.stderr)?.[1], 20_000, 50),
      run.done.then((r) => {
        throw new Error(`loopscope real exited ${r.code} before printing the live address:\n${r.stderr}`);
      }),
    ]).catch((e: unknown) => {
      if (attempt < attempts && run.child.exitCode === 1) return undefined;
      run.child.kill('SIGKILL');
      throw e;
    });
    if (url === undefined) continue;
    return {
      url,
      out: run.out,
      done: run.done,
      stop: () => {
        if (run.child.exitCode === null) run.child.kill('SIGTERM');
        return run.done;
      },
    };
  }
}

/** A WebSocket client that keeps every server message, with a wait for the next matching one. */
export async function liveClient(url: string) {
  const ws = new WebSocket(url);
  const messages: LiveServerMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as LiveServerMessage));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    messages,
    send: (message: unknown) => ws.send(JSON.stringify(message)),
    next<T extends LiveServerMessage['type']>(
      type: T,
      test: (m: Extract<LiveServerMessage, { type: T }>) => boolean = () => true,
      from = 0,
      timeoutMs = 20_000,
    ) {
      return waitUntil(
        `a "${type}" message`,
        async () =>
          messages
            .slice(from)
            .find(
              (m): m is Extract<LiveServerMessage, { type: T }> => m.type === type && test(m as Extract<LiveServerMessage, { type: T }>),
            ),
        timeoutMs,
        20,
      );
    },
  };
}

/** The HTTP status a WebSocket upgrade is refused with (or 101 when it is accepted). */
export function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', (e) => reject(e)); // after a refusal: ignored (already settled)
  });
}

/**
 * The frames a live client was told, made again as the lab makes them (web/live/liveConnection.ts):
 * a `loopscope.frame` of a snapshot takes its state and event from the root snapshot just before it.
 */
export function liveFrames(messages: readonly LiveServerMessage[]): LiveFrame[] {
  const frames: LiveFrame[] = [];
  for (const [i, m] of messages.entries()) {
    if (m.type !== 'loopscope.frame') continue;
    if (m.of === 'runner') {
      frames.push({ ...m.frame, state: m.state, event: m.event });
      continue;
    }
    const before = messages[i - 1];
    if (before?.type !== '@xstate.snapshot' || before.sessionId !== m.sessionId)
      throw new Error(`message ${i}: a frame not right after its snapshot`);
    const value = 'value' in before.snapshot ? before.snapshot.value : undefined;
    frames.push({ ...m.frame, state: dottedState(value), event: before.event.type });
  }
  return frames;
}
