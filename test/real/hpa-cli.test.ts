// `loopscope real` as a process against the REAL daemon: bad input, unreachable daemon,
// --once, live config edits, SIGTERM, and kill -9 mid-create / mid-delete then a restart.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { IncusClient } from '../../real/incus';
import type { Trace } from '../../sim/trace';
import { controllerOf } from '../../sim/trace';
import { parseTrace } from '../../sim/trace-schema';
import { requires } from '../prerequisites';
import {
  connectForSuite,
  expectConforms,
  ownedInstances,
  runCli,
  sleep,
  startCli,
  uniqueHpa,
  waitOwnedRunning,
  waitUntil,
  withIncus,
} from './real-helpers';

const asRoot = await requires('root');
const hpa = uniqueHpa('cl');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-real-cli-'));
chmodSync(dir, 0o755); // readable by the unprivileged user of the permission test

function writeConfig(file: string, over: { min: number; max: number; period?: string; extra?: string }): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    [
      `HPA: { minPods: ${over.min}, maxPods: ${over.max}, memoryThreshold: 50 }`,
      `name: ${hpa.name}`,
      `namePrefix: ${hpa.prefix}`,
      'policy: fixed',
      `period: ${over.period ?? '1s'}`,
      'limitsMemory: 64MiB',
      'backoff: { initial: 300ms, max: 2s }',
      over.extra ?? '',
      '',
    ].join('\n'),
  );
  return path;
}

withIncus.describe('loopscope real (the command)', () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // This file's HPA is the only one using its prefix: other runs on the host do not disturb the count.
  const instances = async () => (await client.listInstances({ recursion: 0 })).filter((n) => n.startsWith(hpa.prefix)).sort();

  it('a bad config exits 2 naming the file and field, and creates nothing', async () => {
    const before = await instances();
    const bad = writeConfig('bad.yaml', { min: 3, max: 1, extra: 'imagee: loopscope-busybox' });
    const r = await runCli(['real', '--config', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}: imagee: unknown key`);
    const bad2 = writeConfig('bad2.yaml', { min: 3, max: 1 });
    const r2 = await runCli(['real', '--config', bad2, '--once']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`${bad2}: HPA.maxPods: expected maxPods ≥ minPods`);
    const r3 = await runCli([
      'real',
      '--config',
      writeConfig('bad3.yaml', { min: 1, max: 2, extra: 'limitsMemory2: 1' }).replace('bad3', 'missing'),
    ]);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/missing\.yaml: file not found/);
    expect(await instances()).toEqual(before);
  }, 60_000);

  // The permission half runs the CLI as nobody (setpriv), which only root may do.
  asRoot.it(
    'a missing socket or a permission error gives a clear message and exits 1',
    async () => {
      const cfg = writeConfig('ok.yaml', { min: 1, max: 2 });
      const missing = await runCli(['real', '--config', cfg, '--once'], { INCUS_SOCKET: join(dir, 'no', 'unix.socket') });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(`cannot reach the Incus daemon at ${join(dir, 'no', 'unix.socket')}: the socket does not exist`);
      const viaDir = await runCli(['real', '--config', cfg, '--once'], { INCUS_SOCKET: undefined, INCUS_DIR: join(dir, 'nodir') });
      expect(viaDir.stderr).toContain(join(dir, 'nodir', 'unix.socket'));
      // The socket is root:incus-admin 0660; an unprivileged user is refused by the kernel.
      const denied = await runAsNobody(['real', '--config', cfg, '--once']);
      expect(denied.code).toBe(1);
      expect(denied.stderr).toMatch(/permission denied\. Run as root or as a member of the incus-admin group/);
      expect(await ownedInstances(client, hpa.name)).toEqual([]);
    },
    60_000,
  );

  it("--once runs one period and exits 0; the timeline is the simulator's", async () => {
    const cfg = writeConfig('once.yaml', { min: 2, max: 3 });
    const out = join(dir, 'once.json');
    const r = await runCli(['real', '--config', cfg, '--once', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/COMPARE pods +0 +mem +-% +0 pods < min 2 → create 2/);
    expect(r.stdout.match(/WAIT|ACT/g)?.length).toBeGreaterThan(0);
    expect((await ownedInstances(client, hpa.name)).map((i) => i.status)).toEqual(['Running', 'Running']);
    const trace = JSON.parse(readFileSync(out, 'utf8')) as Trace;
    expect(trace.loop).toBe('incus-hpa');
    expect(trace.frames.filter((f) => f.event === 'xstate.done.actor.createPod')).toHaveLength(2);
    expect(trace.frames.at(-1)!.phase).toBe('wait');
    // A version 2 trace: it loads through the one schema; the controller saw no pod and decided two creates.
    const loaded = parseTrace(trace);
    expect(loaded.ok ? loaded.trace.version : loaded.error).toBe(2);
    expect(trace.frames.every((f) => f.controller?.loop === 'incus-hpa')).toBe(true);
    const compared = controllerOf(
      trace.frames.find((f) => f.event === 'xstate.done.actor.observe')!,
      'incus-hpa',
    )!;
    expect({
      running: compared.pods.running,
      avg: compared.averagePercent,
      actions: compared.decision?.actions,
      desired: compared.decision?.desired,
    }).toEqual({ running: 0, avg: null, actions: [{ kind: 'create' }, { kind: 'create' }], desired: 2 });
    expectConforms(out);
  }, 60_000);

  it('`real load` spreads a demand across the owned running pods through exec, and --demand 0 removes it', async () => {
    const cfg = join(dir, 'once.yaml'); // the 2 pods of the previous test
    const usage = async () =>
      (await client.listInstances({ recursion: 2 }))
        .filter((i) => i.config?.['user.loopscope.hpa'] === hpa.name)
        .map((i) => i.state?.memory.usage ?? 0);
    const r = await runCli(['real', 'load', '--config', cfg, '--demand', '60MiB']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.replace(/^\S+: /, '')),
    ).toEqual(['30 MiB in /dev/shm/loopscope-load', '30 MiB in /dev/shm/loopscope-load']);
    for (const u of await usage()) expect(u).toBeGreaterThan(30 * 1024 * 1024);
    const r0 = await runCli(['real', 'load', '--config', cfg, '--demand', '0']);
    expect(r0.code).toBe(0);
    for (const u of await usage()) expect(u).toBeLessThan(10 * 1024 * 1024);
    const bad = await runCli(['real', 'load', '--config', cfg, '--demand', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--demand: expected a size');
  }, 60_000);

  it('applies config edits on the next period, ignores an invalid edit, and exits cleanly on SIGTERM', async () => {
    const cfg = writeConfig('live.yaml', { min: 2, max: 3 });
    const out = join(dir, 'live.json');
    const run = startCli(['real', '--config', cfg, '--out', out]);
    try {
      await waitUntil('first period', async () => run.out.stdout.includes('no scale action'), 20_000);
      writeConfig('live.yaml', { min: 3, max: 3 });
      await waitOwnedRunning(client, hpa.name, 3, 20_000, '3 pods after the edit');
      writeFileSync(cfg, 'HPA: { minPods: "many" }\n');
      await waitUntil('the invalid edit reported', async () => run.out.stderr.includes('config edit ignored'), 10_000);
      expect(run.out.stderr).toContain(`${cfg}: HPA.minPods`);
      // A save in place empties the file for a moment: that is not "all defaults" (another HPA).
      writeFileSync(cfg, '');
      await waitUntil('the empty file refused', async () => run.out.stderr.includes('the file is empty'), 10_000);
      // Another owner key would abandon the running pods: refused, the loop keeps its own.
      writeConfig('live.yaml', { min: 3, max: 3, extra: '' });
      writeFileSync(cfg, readFileSync(cfg, 'utf8').replace(`name: ${hpa.name}`, 'name: someone-else'));
      await waitUntil('the new name refused', async () => run.out.stderr.includes(`${cfg}: name: expected "${hpa.name}"`), 10_000);
      await sleep(1_500); // not a wait: time passes after the refusal, then the loop must still be running
      expect(run.child.exitCode).toBeNull(); // still running on the last valid config
      expect((await ownedInstances(client, hpa.name)).length).toBe(3);
      expect(await ownedInstances(client, 'someone-else')).toEqual([]);
      expect(await ownedInstances(client, 'hpa')).toEqual([]); // the defaults' HPA never came to be
    } finally {
      run.child.kill('SIGTERM');
    }
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('SIGTERM: finishing the current operation');
    const trace = JSON.parse(readFileSync(out, 'utf8')) as Trace;
    expect(trace.frames.some((f) => f.event === 'CONFIG.UPDATE' && f.note?.includes('min 3'))).toBe(true);
    expect(trace.frames.some((f) => f.note?.startsWith('config edit ignored'))).toBe(true);
    // The trace written on SIGTERM: the edit applied, the refused ones kept out of the machine.
    expect(expectConforms(out).replayed.configEdits).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('after kill -9 mid-create and mid-delete, the next run adopts what it owns and converges', async () => {
    // Mid-create: 3 pods → 5 wanted; killed just after the first create was sent.
    const up = writeConfig('up.yaml', { min: 5, max: 5 });
    // A copy killed with -9 keeps its lease until it expires: short lease timings keep this test short.
    const FAST_LEASE = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '500ms'];
    // The copies killed with -9 (a, b) write no trace (it is written at exit); each next run's is checked.
    const a = startCli(['real', '--config', up, ...FAST_LEASE]);
    await waitUntil('a create decided', async () => a.out.stdout.includes('→ create 2'), 20_000, 20);
    await sleep(120); // not a wait: the kill -9 lands a moment into the act (the crash window under test)
    a.child.kill('SIGKILL');
    await a.done;
    const upOut = join(dir, 'after-up.json');
    const afterUp = await runCli(['real', '--config', up, '--once', '--out', upOut, ...FAST_LEASE]);
    expect(afterUp.code).toBe(0);
    expectConforms(upOut);
    let owned = await ownedInstances(client, hpa.name);
    expect(owned.map((i) => i.status)).toEqual(Array(5).fill('Running'));

    // Mid-delete: idle, min 1 → the oldest is stopped then deleted; killed inside that.
    const shrink = writeConfig('shrink.yaml', { min: 1, max: 5 });
    const b = startCli(['real', '--config', shrink, ...FAST_LEASE]);
    await waitUntil('a delete decided', async () => /→ delete \S+ \(oldest\)/.test(b.out.stdout), 20_000, 20);
    await sleep(150); // not a wait: the kill -9 lands a moment into the act (the crash window under test)
    b.child.kill('SIGKILL');
    await b.done;
    // The next run also has max lowered to 2: adoption removes the stopped leftover and the extras.
    const down = writeConfig('down.yaml', { min: 1, max: 2 });
    const downOut = join(dir, 'after-down.json');
    const afterDown = await runCli(['real', '--config', down, '--once', '--out', downOut, ...FAST_LEASE]);
    expect(afterDown.code).toBe(0);
    expectConforms(downOut);
    owned = await ownedInstances(client, hpa.name);
    expect(owned.length).toBeLessThanOrEqual(2);
    expect(owned.length).toBeGreaterThanOrEqual(1);
    expect(owned.every((i) => i.status === 'Running')).toBe(true);
    expect(afterDown.stdout).toMatch(/adopted 2 owned pod\(s\); removed \S+/);
  }, 120_000);

  it("prints a systemd unit that runs one period per start, the lab's way", async () => {
    const cfg = writeConfig('unit.yaml', { min: 1, max: 2 });
    const r = await runCli(['real', 'systemd-unit', '--config', cfg]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ExecStart=\S+\/cli\/loopscope real --config \S+unit\.yaml --once$/m);
    expect(r.stdout).toMatch(/^Restart=always$/m);
    expect(r.stdout).toMatch(/^RestartSec=10$/m);
  }, 30_000);
});

/** The same command as an unprivileged user (setpriv: uid/gid 65534, no groups). */
async function runAsNobody(args: string[]) {
  const { spawn } = await import('node:child_process');
  const { ROOT } = await import('./real-helpers');
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        '--import',
        join(ROOT, 'node_modules/tsx/dist/esm/index.mjs'),
        join(ROOT, 'cli/main.ts'),
        ...args,
      ],
      { cwd: ROOT, env: { ...process.env, HOME: tmpdir() }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}
