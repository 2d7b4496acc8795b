// Shared helpers of the real-mode HPA tests. They run against the REAL Incus daemon (never a
// mock), in `withIncus` suites: with CI set a missing daemon fails them; elsewhere they skip with the reason.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { OWNER_KEY } from '../../machines/incus-hpa';
import type { HpaConfig } from '../../machines/incus-hpa';
import { DEFAULT_CONFIG } from '../../machines/incus-hpa';
import type { RealHpaConfig } from '../../real/hpa-config';
import { DEFAULT_REAL_SETTINGS } from '../../real/hpa-config';
import { IncusClient, IncusError, defaultSocketPath } from '../../real/incus';
import { deleteLeaseProfiles } from '../../real/lease';
import type { ConformReport } from '../../sim/conform/conform';
import { conform } from '../../sim/conform/conform';
import { loadTracePolicies, readRealTrace } from '../../sim/conform/load';
import { formatConform } from '../../sim/conform/report';
import type { Trace } from '../../sim/trace';
import { traceJson } from '../../sim/trace-schema';

import { requires } from '../prerequisites';

/** The real-Incus suites' gate (test/prerequisites.ts): a daemon must answer on the socket. */
export const withIncus = await requires('incus');
/** The HTTPS suites' gate: the daemon, and the incus command that makes their client certificates (https-listener.ts). */
export const withIncusHttps = await requires('incus', 'incus-cli');
export const socketPath = defaultSocketPath();
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const MiB = 1024 * 1024;

/** A unique HPA name and pod prefix per test file, so files never see each other's pods. */
export function uniqueHpa(tag: string): { name: string; prefix: string } {
  const hex = randomBytes(3).toString('hex');
  return { name: `lst-${tag}-${hex}`, prefix: `${tag}${hex}-` };
}

export function realConfig(hpa: { name: string; prefix: string }, over: Partial<HpaConfig> = {}): RealHpaConfig {
  return {
    file: `test:${hpa.name}`,
    config: {
      ...DEFAULT_CONFIG,
      name: hpa.name,
      namePrefix: hpa.prefix,
      periodMs: 1_000,
      limitsMemoryBytes: 64 * MiB,
      backoffInitialMs: 300,
      backoffMaxMs: 2_000,
      policy: 'fixed',
      ...over,
    },
    settings: { ...DEFAULT_REAL_SETTINGS, image: process.env.LOOPSCOPE_INCUS_IMAGE ?? DEFAULT_REAL_SETTINGS.image },
  };
}

export async function ownedInstances(client: IncusClient, hpa: string) {
  // An instance read mid-create may have no config yet.
  return (await client.listInstances({ recursion: 1 })).filter((i) => i.config?.[OWNER_KEY] === hpa);
}

/** Force-removes instances (ours, or named ones the test made), retrying while Incus is busy. */
export async function forceDelete(client: IncusClient, name: string): Promise<void> {
  await client.updateInstanceState(name, { action: 'stop', force: true }).catch(() => undefined);
  for (let i = 0; i < 50; i++) {
    try {
      await client.deleteInstance(name);
      return;
    } catch (err) {
      if (err instanceof IncusError && err.status === 404) return;
      if (!(err instanceof IncusError) || !/busy|is running/i.test(err.serverMessage)) throw err;
      await sleep(100);
    }
  }
}

export async function cleanupOwned(client: IncusClient, hpa: string, extra: string[] = []): Promise<void> {
  const owned = await ownedInstances(client, hpa).catch(() => []);
  for (const name of [...owned.map((i) => i.name), ...extra]) await forceDelete(client, name).catch(() => undefined);
}

/** The leader-election lease profile a CLI run leaves behind (real/lease.ts). */
export async function deleteLease(client: IncusClient, hpa: string): Promise<void> {
  await deleteLeaseProfiles(client, hpa);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitUntil<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(intervalMs);
  }
}

/** Waits until the HPA owns exactly `count` Running instances. */
export async function waitOwnedRunning(
  client: IncusClient,
  hpa: string,
  count: number,
  timeoutMs?: number,
  what = `${count} owned pods running`,
): Promise<void> {
  await waitUntil(what, async () => (await ownedInstances(client, hpa)).filter((i) => i.status === 'Running').length === count, timeoutMs);
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the real CLI (cli/loopscope, through tsx) as a child process. */
export function startCli(args: string[], env: Record<string, string | undefined> = {}) {
  const child = spawn(
    process.execPath,
    ['--import', resolve(ROOT, 'node_modules/tsx/dist/esm/index.mjs'), resolve(ROOT, 'cli/main.ts'), ...args],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => {
    out.stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out.stderr += d.toString();
  });
  const done = new Promise<CliRun>((resolveRun) => {
    child.on('close', (code, signal) => resolveRun({ code, signal, ...out }));
  });
  return { child, out, done };
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 60_000): Promise<CliRun> {
  const run = startCli(args, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  return run.done.finally(() => clearTimeout(timer));
}

/** Connects before a file's tests (inside a `withIncus` suite) and, after them, removes what the HPA
 * owns and closes the client. `use` receives the connected client. */
export function connectForSuite(hpaName: string | undefined, use: (client: IncusClient) => void): void {
  let client: IncusClient | undefined;
  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
    use(client);
  }, 60_000);
  afterAll(async () => {
    if (!client) return;
    if (hpaName) {
      await cleanupOwned(client, hpaName);
      await deleteLease(client, hpaName);
    }
    await client.close();
  }, 120_000);
}

let conformDir: string | undefined;

/**
 * `loopscope conform` on a real run: its trace — an in-process runner's `trace()`, written under the
 * OS temp dir, or the file a `loopscope real --out` wrote — replayed against the model.
 */
export function conformReport(source: Trace | string, name = 'run'): ConformReport {
  let file: string;
  if (typeof source === 'string') {
    file = source;
  } else {
    conformDir ??= mkdtempSync(join(tmpdir(), 'loopscope-conform-'));
    file = join(conformDir, `${name}-${randomBytes(3).toString('hex')}.json`);
    writeFileSync(file, traceJson(source) + '\n');
  }
  const real = readRealTrace(file);
  return conform(file, real, loadTracePolicies(file, real));
}

/** The run conforms to the model and kept its promises; otherwise fails with conform's report (the divergence block). */
export function expectConforms(source: Trace | string, name = 'run'): ConformReport {
  const report = conformReport(source, name);
  if (!report.conforms || !report.promisesKept) throw new Error(`the real run does not conform to the model:\n${formatConform(report)}`);
  return report;
}
