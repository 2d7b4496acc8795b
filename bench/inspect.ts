import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { InspectSocket } from '../cli/inspect/inspect-socket';
import type { FollowedRun } from '../cli/inspect/run-inspection';
import { inspectRun } from '../cli/inspect/run-inspection';
import { hpaBinding } from '../sim/loops/incus-hpa';
import { Runner } from '../sim/runner';
import { hpaWorkload } from './hpa-workload';

/**
 * `sim --inspect`'s cost: the 24 h / 50-pod HPA case (seed policy) simulated with its frames recorded,
 * once plain and once telling every frame to an inspector (the protocol's actor, event and snapshot
 * messages over a WebSocket) — the receiver a separate process that counts what arrives, the time
 * taken until the last message was received. Same run, same decisions: the frame counts must agree.
 */
const RECEIVER = `
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' }, () => process.send({ port: wss.address().port }));
let n = 0;
wss.on('connection', (ws) => ws.on('message', () => { n++; }));
process.on('message', () => process.send({ received: n }));
`;

function simulate(follow?: (run: FollowedRun) => void) {
  const w = hpaWorkload(50, 24, 'seed');
  const t0 = performance.now();
  const runner = new Runner(hpaBinding, { scenario: w.name, seed: 42, world: w.world, config: w.config, timeline: w.timeline });
  follow?.(runner);
  while (runner.nextEventAt !== undefined && runner.nextEventAt <= w.untilMs) {
    runner.processNext();
    follow?.(runner);
  }
  return { ms: performance.now() - t0, frames: runner.frames.length };
}

function ask(child: ChildProcess): Promise<{ port?: number; received?: number }> {
  return new Promise((resolve) => child.once('message', (m: { port?: number; received?: number }) => resolve(m)));
}

async function main() {
  simulate(); // warm-up: JIT and module init are not inspection's cost
  const plain = simulate();
  const receiver = spawn(process.execPath, ['-e', RECEIVER], { cwd: process.cwd(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await ask(receiver);
  const socket = await InspectSocket.open(new URL(`ws://127.0.0.1:${port}`), (why) => {
    throw new Error(why);
  });
  const inspection = inspectRun(socket, hpaBinding.machine, 'bench');
  const t0 = performance.now();
  const run = simulate((followed) => inspection.follow(followed));
  await socket.close();
  // Everything the receiver counted once the socket closed: the run is done when the receiver has it all.
  receiver.send('count');
  const { received } = await ask(receiver);
  const inspectedMs = performance.now() - t0;
  receiver.kill();
  const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  console.log('\n## sim --inspect: the cost of telling a run to an XState inspector (24 h, 50 pods, seed; frames recorded)\n');
  console.log('| run | frames | messages received | wall | vs plain |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| plain | ${fmt(plain.frames)} | — | ${fmt(plain.ms / 1000, 3)} s | 1.00× |`);
  console.log(
    `| --inspect (receiver in another process) | ${fmt(run.frames)} | ${fmt(received ?? 0)} | ${fmt(inspectedMs / 1000, 3)} s | ${fmt(inspectedMs / plain.ms, 2)}× |`,
  );
  if (run.frames !== plain.frames) console.log('\nFRAMES DIFFER: inspection changed the run');
  if (received !== socket.count) console.log(`\nLOST MESSAGES: sent ${socket.count}, received ${received ?? 0}`);
}

await main();
