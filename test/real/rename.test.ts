// `loopscope real rename` against the REAL daemon: pods made by `real --once` change
// owner to the new name, whose own `real --once` adopts them and creates nothing; refused while a loop
// of the old name runs (its lease renewed), while the new name's lease is held, and when the new name
// owns pods of its own; decoys (unowned, another HPA's) untouched; a half-done rename is finished by a
// re-run; a change between the read and the PATCH is caught by If-Match. The renames run in-process
// (cli/run.ts against the real daemon): a process costs 10–40 s of start-up on this loaded machine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OWNER_KEY } from '../../machines/incus-hpa';
import type { Instance } from '../../real/incus';
import { IncusClient } from '../../real/incus';
import { LeaderElector, readLease } from '../../real/lease';
import { RENAMED_FROM_KEY, patchOwnerIfMatch, readWithEtag, rekeyInstance } from '../../real/rename';
import { runInProcess } from '../cli/in-process';
import {
  cleanupOwned,
  deleteLease,
  forceDelete,
  ownedInstances,
  realConfig,
  runCli,
  socketPath,
  startCli,
  uniqueHpa,
  waitUntil,
  withIncus,
} from './real-helpers';

const a = uniqueHpa('rn');
/** The names the pods pass through; the prefix stays a's (pods keep their names). */
const b = `${a.name}-b`;
const c = `${a.name}-c`;
const held = `${a.name}-h`;
const d = `${a.name}-d`;
const other = uniqueHpa('rno');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-rename-'));
const decoyUnowned = `${a.prefix}decoy`;
const decoyOther = `${a.prefix}other`;

function config(name: string, prefix: string, min: number): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    `HPA: { minPods: ${min}, maxPods: ${min} }\nname: ${name}\nnamePrefix: ${prefix}\npolicy: fixed\nperiod: 1s\nlimitsMemory: 64MiB\n`,
  );
  return path;
}
const names = (pods: Instance[]) => pods.map((i) => i.name).sort();
const uuids = (pods: Instance[]) => pods.map((i) => i.config['volatile.uuid']).sort();
/** The user.* keys of an instance: what a rename could have written. */
const userKeys = (i: Instance) => Object.fromEntries(Object.entries(i.config).filter(([k]) => k.startsWith('user.')));

withIncus.describe('loopscope real rename', () => {
  let client!: IncusClient;
  const decoysBefore = new Map<string, Record<string, string>>();
  beforeAll(async () => {
    client = await IncusClient.connect({ socketPath });
    const image = realConfig(a).settings.image;
    // Named like a's pods but not owned; owned by another HPA. Never started: only their keys matter.
    await client.createInstance({ name: decoyUnowned, source: { type: 'image', alias: image }, config: { 'limits.memory': '64MiB' } });
    await client.createInstance({
      name: decoyOther,
      source: { type: 'image', alias: image },
      config: { 'limits.memory': '64MiB', [OWNER_KEY]: other.name },
    });
    for (const n of [decoyUnowned, decoyOther]) decoysBefore.set(n, userKeys(await client.getInstance(n)));
  }, 120_000);
  afterAll(async () => {
    if (!client) return;
    for (const n of [a.name, b, c, d, held, other.name]) {
      await cleanupOwned(client, n);
      await deleteLease(client, n);
    }
    await forceDelete(client, decoyUnowned).catch(() => undefined);
    await forceDelete(client, decoyOther).catch(() => undefined);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  it("moves ownership: the dry run changes nothing, the new name's --once adopts the pods and creates none, a re-run has nothing to do", async () => {
    const aCfg = config(a.name, a.prefix, 2);
    const made = await runCli(['real', '--config', aCfg, '--once']);
    expect(made.code).toBe(0);
    const pods = await ownedInstances(client, a.name);
    expect(pods.map((i) => i.status)).toEqual(['Running', 'Running']);

    const dry = await runInProcess(['real', 'rename', '--config', aCfg, '--to', b, '--dry-run']);
    expect(dry.code).toBe(0);
    for (const p of pods) expect(dry.stdout).toContain(`would re-key ${p.name} (Running): ${OWNER_KEY} ${a.name} → ${b}`);
    expect(dry.stdout).toContain(`lease ${a.name}: free (released)`); // --once released it at exit
    expect(dry.stdout).toContain(`lease ${b}: none`);
    expect(names(await ownedInstances(client, a.name))).toEqual(names(pods));

    const r = await runInProcess(['real', 'rename', '--config', aCfg, '--to', b]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const p of pods) expect(r.stdout).toContain(`re-keyed ${p.name}: ${OWNER_KEY} ${a.name} → ${b}`);
    expect(r.stdout).toContain(`renamed: 2 pod(s) owned by ${b} (2 re-keyed now); ${a.name} owns none`);
    expect(r.stdout).toContain(`next: edit ${aCfg}: name: ${b} (keep namePrefix: ${a.prefix}`);
    expect(await ownedInstances(client, a.name)).toEqual([]);
    const moved = await ownedInstances(client, b);
    // The very same instances (volatile.uuid), marked, still running.
    expect(uuids(moved)).toEqual(uuids(pods));
    expect(moved.map((i) => [i.status, i.config[RENAMED_FROM_KEY]])).toEqual([
      ['Running', a.name],
      ['Running', a.name],
    ]);
    // Both leases released: a loop may start at once.
    expect((await readLease(client, a.name))?.holder).toBe('');
    expect((await readLease(client, b))?.holder).toBe('');

    const adopt = await runCli(['real', '--config', config(b, a.prefix, 2), '--once']);
    expect(adopt.code).toBe(0);
    expect(adopt.stdout).toContain('adopted 2 owned pod(s)');
    expect(adopt.stdout).not.toMatch(/→ create|→ delete/);
    expect(uuids(await ownedInstances(client, b))).toEqual(uuids(pods));

    const again = await runInProcess(['real', 'rename', '--config', aCfg, '--to', b]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`nothing to re-key: ${a.name} owns no pods; ${b} owns the 2 pod(s) moved from it`);
  }, 240_000);

  it('refused when the new name owns pods of its own, or its lease is held by a running loop; bad input is one line, exit 2', async () => {
    // `other` owns the decoy (a loop of `other` is not run: its adoption would remove the stopped decoy).
    const bCfg = config(b, a.prefix, 2);
    const r = await runInProcess(['real', 'rename', '--config', bCfg, '--to', other.name]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^loopscope: refused: HPA ${other.name} already owns 1 pod\\(s\\) \\(${decoyOther}\\) that no rename from ${b} moved: re-keying would merge two HPAs`,
      ),
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect((await ownedInstances(client, b)).length).toBe(2);

    // A loop of the new name holds its lease (an elector in this process, renewing every 500 ms).
    const elector = new LeaderElector(client, held, { leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 500 });
    expect(await elector.acquire()).toBe(true);
    const stop = new AbortController();
    const renewing = elector.renewUntilLost(() => undefined, stop.signal);
    try {
      const t0 = Date.now();
      const h = await runInProcess(['real', 'rename', '--config', bCfg, '--to', held]);
      expect(h.code).toBe(1);
      expect(h.stderr).toContain(`loopscope: refused: a loop for HPA ${held} is running: ${elector.identity} renewed its lease`);
      expect(Date.now() - t0).toBeLessThan(4_000 + 2_000); // seen renewed within its lease duration
      expect(h.stdout).toContain(`lease ${held}: held by ${elector.identity}`);
    } finally {
      stop.abort();
      await renewing;
      await elector.release();
    }
    expect((await ownedInstances(client, b)).length).toBe(2);
    expect(await ownedInstances(client, held)).toEqual([]);
    expect((await readLease(client, b))?.holder).toBe(''); // the old name's lease, taken first, given back

    // An unreachable daemon: one line, exit 1.
    const saved = process.env.INCUS_SOCKET;
    process.env.INCUS_SOCKET = join(dir, 'no', 'unix.socket');
    try {
      const gone = await runInProcess(['real', 'rename', '--config', bCfg, '--to', c]);
      expect(gone.code).toBe(1);
      expect(gone.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^loopscope: cannot reach the Incus daemon at .*no\/unix\.socket/),
      ]);
    } finally {
      if (saved === undefined) delete process.env.INCUS_SOCKET;
      else process.env.INCUS_SOCKET = saved;
    }
    for (const [args, error] of [
      [['--to', 'Bad_Name'], /^loopscope: --to: expected an HPA name of lowercase letters/],
      [['--to', b], /^loopscope: --to: expected a name other than the config's own/],
      [[], /^loopscope: --to: expected the new HPA name/],
    ] as const) {
      const bad = await runInProcess(['real', 'rename', '--config', bCfg, ...args]);
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(error)]);
    }
  }, 240_000);

  it('refused while a loop of the old name runs (its lease renewed); nothing re-keyed', async () => {
    const bCfg = config(b, a.prefix, 2);
    const loop = startCli(['real', '--config', bCfg, '--lease-duration', '6s', '--renew-deadline', '4s', '--retry-period', '1s']);
    try {
      await waitUntil('the loop leads', async () => ((await readLease(client, b))?.holder ?? '') !== '', 60_000);
      const r = await runInProcess(['real', 'rename', '--config', bCfg, '--to', c]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^loopscope: refused: a loop for HPA ${b} is running: \\S+ renewed its lease at `));
      expect(await ownedInstances(client, c)).toEqual([]);
      expect((await ownedInstances(client, b)).length).toBe(2);
    } finally {
      loop.child.kill('SIGTERM');
    }
    expect((await loop.done).code).toBe(0);
  }, 240_000);

  it('a half-done rename is finished by a re-run; a change between read and PATCH is caught by If-Match', async () => {
    const bCfg = config(b, a.prefix, 2);
    const pods = names(await ownedInstances(client, b));
    expect(pods).toHaveLength(2);
    // Interrupted (kill -9) after its first pod: that pod is c's (marked), the other still b's, and
    // the dead rename's lease of b is left held, never renewed (2 s here; a rename writes 15 s).
    expect((await rekeyInstance(client, pods[0]!, b, c)).result).toBe('rekeyed');
    const dead = new LeaderElector(client, b, {
      identity: 'loopscope-rename_killed',
      leaseDurationMs: 2_000,
      renewDeadlineMs: 1_500,
      retryPeriodMs: 1_000,
    });
    expect(await dead.acquire()).toBe(true);
    const deadRecord = (await readLease(client, b))!;
    expect(deadRecord.holder).toBe('loopscope-rename_killed');

    // If-Match: the ETag read before another key changed no longer matches; the owner is not written.
    const read = (await readWithEtag(client, pods[1]!))!;
    await client.patchInstance(pods[1]!, { config: { 'user.rename-test': 'touched' } });
    expect(await patchOwnerIfMatch(client, pods[1]!, read.etag, b, c)).toBe('changed');
    expect((await client.getInstance(pods[1]!)).config[OWNER_KEY]).toBe(b);

    const r = await runInProcess(['real', 'rename', '--config', bCfg, '--to', c]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`re-keyed ${pods[1]}: ${OWNER_KEY} ${b} → ${c}`);
    expect(r.stdout).not.toContain(`re-keyed ${pods[0]}`);
    expect(r.stdout).toContain(`renamed: 2 pod(s) owned by ${c} (1 re-keyed now, 1 by an earlier run); ${b} owns none`);
    // The dead holder's lease was watched for its duration, not renewed, and taken over.
    expect(r.stdout).toContain(`lease ${b}: held by loopscope-rename_killed`);
    expect(r.stdout).toContain(`lease ${b}: not renewed by loopscope-rename_killed for 2 s: taken over`);
    expect(await readLease(client, b)).toMatchObject({ holder: '', transitions: deadRecord.transitions + 1 });
    expect(names(await ownedInstances(client, c))).toEqual(pods);
    const adopt = await runCli(['real', '--config', config(c, a.prefix, 2), '--once']);
    expect(adopt.code).toBe(0);
    expect(adopt.stdout).toContain('adopted 2 owned pod(s)');
    expect(adopt.stdout).not.toMatch(/→ create|→ delete/);
  }, 240_000);

  it('SIGINT while it watches a lease (a process): ends at once, releases the lease it took, re-keys nothing', async () => {
    // d's lease left by a holder that died: a 30 s watch the signal cuts short.
    const dead = new LeaderElector(client, d, {
      identity: 'loopscope-dead',
      leaseDurationMs: 30_000,
      renewDeadlineMs: 20_000,
      retryPeriodMs: 2_000,
    });
    expect(await dead.acquire()).toBe(true);
    const run = startCli(['real', 'rename', '--config', config(c, a.prefix, 2), '--to', d]);
    await waitUntil('the watch', async () => run.out.stdout.includes(`lease ${d}: held by loopscope-dead`), 60_000, 50);
    expect((await readLease(client, c))?.holder).toMatch(/^loopscope-rename_/); // c's, taken first
    const sent = Date.now();
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(Date.now() - sent).toBeLessThan(5_000);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      `loopscope: interrupted before any pod was re-keyed (interrupted while watching the lease of ${d})`,
    ]);
    expect((await readLease(client, c))?.holder).toBe('');
    expect((await readLease(client, d))?.holder).toBe('loopscope-dead');
    expect((await ownedInstances(client, c)).length).toBe(2);
    expect(await ownedInstances(client, d)).toEqual([]);
  }, 120_000);

  it("never touched the decoys (unowned, named like the pods; another HPA's)", async () => {
    for (const [n, keys] of decoysBefore) expect(userKeys(await client.getInstance(n))).toEqual(keys);
  });
});
