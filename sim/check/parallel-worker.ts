import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { loadScenario } from '../loops';
import { MemoMachine } from '../memo-machine';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import { loopById } from '../loops/registry';
import type { StepState } from '../step';
import { prepareCheck } from './check';
import type { SearchNode } from './expander';
import { Expander } from './expander';
import { quietStacks } from './explorer';
import { LazyLevel } from './frontier';
import { rebuildLevel } from './resume';
import { VisitedSet } from './visited-set';
import type { FromWorker, ToWorker, WorkerSetup } from './parallel-protocol';
import { NO_TICK, R, STRIDE } from './parallel-protocol';

/** One worker of the parallel search (parallel.ts): it steps and judges states; the main thread numbers them. */
const setup = workerData as WorkerSetup; // cast: parallel.ts starts this worker with a WorkerSetup
const scenario = setup.scenario as LoadedScenario; // cast: the main thread posted a LoadedScenario (structured clone keeps plain data)
// A scenario's own code (a Kubernetes controller module or webhook, an HPA policy module) reaches the
// machine with the loop its file's parse provides (a loop that takes user code has `provide`): parse
// the file once more here, in this thread.
const registered = loopById(setup.loop);
if (!registered) throw new Error(`explorer worker: no loop ${setup.loop}`);
const userFile = registered.provide && scenario.file && existsSync(scenario.file) ? scenario.file : undefined;
const entry = userFile ? loadScenario(userFile).entry : registered;
const prepared = prepareCheck(entry, scenario, {
  ...(setup.policy !== undefined ? { policy: setup.policy } : {}),
  ...(setup.withinPeriods ? { withinPeriods: setup.withinPeriods } : {}),
});
const expander = new Expander(
  entry.binding,
  prepared.check,
  { config: prepared.config, world: scenario.world },
  prepared.alphabet,
  prepared.properties,
  setup.memo,
  setup.symmetry,
);
const hash = new Uint32Array(2);

type Node = SearchNode<unknown, unknown>;
function send(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}
let frontier: Node[] = [];
let pending: { run: StepState<unknown, unknown>; remaining: Uint8Array }[] = [];
let records = new Int32Array(STRIDE * 1024);
let count = 0;
/** The main thread's visited set, read while a level is expanded (it writes it only between levels: parallel.ts). */
let visited: Pick<VisitedSet, 'get'> | undefined;
/** States this worker expanded (stats.expandedBy: how evenly the workers shared the search). */
let expanded = 0;

function record(
  parent: number,
  order: number,
  via: number,
  dt: number,
  run: StepState<unknown, unknown> | undefined,
  remaining: Uint8Array | undefined,
  decidedAlways: number,
  decidedSometimes: number,
): void {
  if ((count + 1) * STRIDE > records.length) {
    const next = new Int32Array(records.length * 2);
    next.set(records);
    records = next;
  }
  const o = count * STRIDE;
  records[o + R.parent] = parent;
  records[o + R.order] = order;
  records[o + R.via] = via;
  records[o + R.dt] = dt;
  let always = 0;
  let sometimes = 0;
  let eventually = 0;
  let known = -1;
  if (run && remaining) {
    expander.hash(run, remaining, hash);
    records[o + R.hi] = hash[0]!;
    records[o + R.lo] = hash[1]!;
    known = visited?.get(hash[0]!, hash[1]!) ?? -1;
  }
  if (run && remaining && known === -1) {
    // Judged here, where the state is; properties already decided are skipped as in the sequential search.
    expander.always.forEach((p, i) => {
      if (!(decidedAlways & (1 << i)) && !p.holds(run)) always |= 1 << i;
    });
    expander.sometimes.forEach((p, i) => {
      if (!(decidedSometimes & (1 << i)) && p.holds(run)) sometimes |= 1 << i;
    });
    expander.eventually.forEach((p, i) => {
      if (p.holds(run)) eventually |= 1 << i;
    });
    pending.push({ run, remaining });
  } else pending.push(undefined as never); // keeps records and pending aligned: a seen state is never kept
  records[o + R.always] = always;
  records[o + R.sometimes] = sometimes;
  records[o + R.eventually] = eventually;
  records[o + R.known] = known;
  count++;
}

function flush(): void {
  const out = records.slice(0, count * STRIDE);
  send({ type: 'records', records: out, count }, [out.buffer]);
  count = 0;
}

send({ type: 'ready' });

parentPort!.on('message', (message: ToWorker) => {
  try {
    quietStacks(() => {
      if (message.type === 'root') {
        pending = [];
        const { run, remaining } = expander.initial();
        record(-1, 0, -1, 0, run, remaining, 0, 0);
        flush();
      } else if (message.type === 'rebuild') {
        frontier = rebuilt(message.from, message.to, message.parent, message.move);
        send({ type: 'rebuilt', count: frontier.length });
      } else if (message.type === 'expand') {
        pending = [];
        visited = VisitedSet.reader(message.visited);
        expanded += frontier.length;
        for (const node of frontier) {
          const ticks = expander.successors(node, (run, remaining, order, via, dt) =>
            record(node.id, order, via, dt, run, remaining, message.decidedAlways, message.decidedSometimes),
          );
          if (!ticks) record(node.id, NO_TICK, 0, 0, undefined, undefined, 0, 0);
        }
        frontier = [];
        visited = undefined;
        flush();
      } else if (message.type === 'keep') {
        const next: Node[] = [];
        message.ids.forEach((id, i) => {
          if (id >= 0) next.push({ id, ...pending[i]! });
        });
        frontier = next;
        pending = [];
      } else {
        const { pure } = expander.stepper;
        send({ type: 'stats', expanded, ...(pure instanceof MemoMachine ? { memo: { ...pure.stats } } : {}) });
      }
    });
  } catch (e) {
    send({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
});

/** This worker's share (ids from … to − 1) of a handed-over level, re-derived from the book's records as a resumed search does (resume.ts). */
function rebuilt(from: number, to: number, parent: Int32Array, move: Int32Array): Node[] {
  if (from >= to) return [];
  const records = { parentOf: (id: number) => parent[id]!, moveOf: (id: number) => move[id]! };
  const level = rebuildLevel(expander, records, from, to, new LazyLevel<unknown, unknown>());
  return Array.from({ length: level.length }, (_, i) => level.take(i, (p, order) => expander.successor(p, order)));
}
