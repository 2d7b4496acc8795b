// `loopscope real --inspect` against the REAL daemon: the HPA machine's own XState actor, inspected
// through XState's `inspect` option, reaches a WebSocket receiver in Stately's protocol — the actor
// announced with its machine definition, its invoked actors (observe, createPod …) as children, and a
// snapshot of the root for every frame of the trace `--out` writes, same states, same order.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { IncusClient } from '../../real/incus';
import type { Trace } from '../../sim/trace';
import { dottedState } from '../../sim/trace';
import { startInspectReceiver } from '../inspect-receiver';
import { connectForSuite, ownedInstances, runCli, uniqueHpa, withIncus } from './real-helpers';

const hpa = uniqueHpa('in');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-real-inspect-'));

withIncus.describe("real HPA: --inspect sends the actor's inspection to a WebSocket receiver", () => {
  let client!: IncusClient;
  connectForSuite(hpa.name, (c) => {
    client = c;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('real --once --inspect: the HPA actor with its definition, its child actors, a root snapshot per frame of the trace', async () => {
    const receiver = await startInspectReceiver();
    const { got } = receiver;
    try {
      const cfg = join(dir, 'hpa.yaml');
      writeFileSync(
        cfg,
        `HPA: { minPods: 1, maxPods: 2 }\nname: ${hpa.name}\nnamePrefix: ${hpa.prefix}\npolicy: fixed\nperiod: 1s\nlimitsMemory: 64MiB\n`,
      );
      const out = join(dir, 'trace.json');
      const done = await runCli(['real', '--config', cfg, '--once', '--inspect', receiver.url, '--out', out], {}, 120_000);
      expect(done.code, done.stderr).toBe(0);
      // The CLI drains and closes before it exits: everything has arrived.
      await receiver.closed;
      const trace = JSON.parse(readFileSync(out, 'utf8')) as Trace;
      expect((await ownedInstances(client, hpa.name)).length).toBe(1);

      const actors = got.filter((e) => e.type === '@xstate.actor');
      const root = actors.find((a) => a.parentId === undefined && a.name === 'incus-hpa');
      expect(root, `actors: ${actors.map((a) => a.name).join(', ')}`).toBeDefined();
      expect((JSON.parse(root!.definition ?? '{}') as { id?: string }).id).toBe('incus-hpa');
      const children = actors.filter((a) => a.parentId === root!.sessionId).map((a) => a.name);
      expect(children).toEqual(expect.arrayContaining(['observe', 'createPod']));

      // The first frame (real.adopt) is the runner's own, before the actor starts; every later one is a root snapshot.
      const rootSnapshots = got.flatMap((e) => (e.type === '@xstate.snapshot' && e.sessionId === root!.sessionId ? [e] : []));
      const states = rootSnapshots.map((s) => dottedState('value' in s.snapshot ? s.snapshot.value : undefined));
      expect(trace.frames[0]!.event).toBe('real.adopt');
      expect(states).toEqual(trace.frames.slice(1).map((f) => f.state));
      expect(rootSnapshots.map((s) => s.event.type)).toEqual(trace.frames.slice(1).map((f) => f.event));
    } finally {
      await receiver.stop();
    }
  }, 180_000);
});
