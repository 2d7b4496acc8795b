import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';

/**
 * A synchronous HTTP POST for the simulator's synchronous steps: a worker thread makes the request
 * with fetch and wakes the caller through Atomics (the caller blocks for at most timeoutMs, plus the worker's start-up).
 * Used only for a user's webhook (a Metacontroller sync hook), whose answers are memoised.
 */

export type HttpAnswer = { status: number; body: string } | { error: string };

const WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ url, body, timeoutMs, signal, port }) => {
  let out;
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(timeoutMs) });
    out = { status: res.status, body: await res.text() };
  } catch (e) {
    const cause = e && e.cause;
    out = { error: e && e.name === 'TimeoutError' ? 'timed out after ' + timeoutMs + ' ms'
      : cause ? String(cause.code || (cause.errors && cause.errors[0] && cause.errors[0].code) || cause.message) : String((e && e.message) || e) };
  }
  port.postMessage(out);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`;

let worker: Worker | undefined;

export function postJsonSync(url: string, body: string, timeoutMs: number): HttpAnswer {
  worker ??= new Worker(WORKER, { eval: true });
  worker.unref();
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  worker.postMessage({ url, body, timeoutMs, signal, port: port2 }, [port2]);
  // fetch itself is bounded by timeoutMs; the slack covers the worker's own start-up on a busy machine.
  const woke = Atomics.wait(signal, 0, 0, timeoutMs + 30_000);
  const message = receiveMessageOnPort(port1)?.message as HttpAnswer | undefined; // cast: the worker posts only HttpAnswer
  port1.close();
  if (woke === 'timed-out' || !message) return { error: `no answer within ${timeoutMs} ms` };
  return message;
}
