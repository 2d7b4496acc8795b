// The parallel search with one visited set shared by its workers (sim/check/visited-set.ts,
// parallel.ts), and the hand-over from the thread that searched while they booted: counts, depth,
// verdicts and counterexamples equal the sequential search's, for 2 and 3 workers, from the
// initial state or from a hand-over at a level boundary; a real worker thread reads the table the
// main thread writes, and a checkpoint of a shared table writes and reads back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckOptions, CheckRun } from '../../sim/check/check';
import { checkScenario, checkScenarioAsync, variantNames } from '../../sim/check/check';
import { readCheckpoint, writeCheckpoint } from '../../sim/check/checkpoint';
import { formatReport } from '../../sim/check/report';
import { SearchBook } from '../../sim/check/search-book';
import type { VisitedTables } from '../../sim/check/visited-set';
import { VisitedSet } from '../../sim/check/visited-set';
import { loadScenario } from '../../sim/loops';

const TMP = mkdtempSync(join(tmpdir(), 'loopscope-parallel-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** Everything a check reports that the parallel search must reproduce. */
const same = (r: CheckRun) => ({
  distinct: r.result.stats.distinct,
  generated: r.result.stats.generated,
  depth: r.result.stats.depth,
  stopped: r.result.stats.stopped,
  verdicts: r.result.verdicts.map((v) => [v.property.name, v.status, v.path, v.settleMs, v.cycleStart, v.detail]),
  counterexamples: r.counterexamples.map((c) => [c.property, c.path, c.trace]),
});

const sum = (ns: readonly number[]) => ns.reduce((a, b) => a + b, 0);

function scenarioOf(file: string) {
  const { entry, scenario } = loadScenario(file);
  const variant = variantNames(entry)[0];
  const base: CheckOptions = variant ? { policy: variant } : {};
  return { entry, scenario, base };
}

describe('workers sharing one visited set search as one thread does', () => {
  // Five loops' check scenarios of a few thousand states at most; the flapping HPA (a repeating move) has liveness properties and edges.
  // Whether a level is wide enough (32 states a worker) for the workers to share it out: below, worker 0 expands every state.
  const cases: [string, CheckOptions, boolean][] = [
    ['scenarios/incus-hpa-check-flapping.yaml', {}, false],
    ['scenarios/incus-hpa-check-small.yaml', {}, true],
    ['scenarios/terraform-check-crashed-lock.yaml', {}, false],
    ['scenarios/systemd-restart-check-timeout.yaml', {}, true],
    ['scenarios/kubernetes-check-replicaset.yaml', {}, true],
    // A state bound met in the middle of a level: the sequential search finishes the state it was expanding.
    ['scenarios/incus-hpa-check-small.yaml', { maxStates: 1_000 }, true],
  ];
  for (const [file, bound, sharesOut] of cases) {
    it(`${file}${bound.maxStates ? ` (max ${bound.maxStates} states)` : ''}: 2 and 3 workers = 1 thread`, async () => {
      const { entry, scenario, base } = scenarioOf(file);
      const options = { ...base, ...bound };
      const sequential = checkScenario(entry, scenario, options);
      for (const workers of [2, 3]) {
        const parallel = await checkScenarioAsync(entry, scenario, { ...options, workers, parallelNow: true });
        expect(parallel.result.stats.workers).toBe(workers);
        expect(parallel.result.stats.handedOverAt).toBeUndefined();
        expect(same(parallel)).toEqual(same(sequential));
        const expandedBy = parallel.result.stats.expandedBy!;
        expect(expandedBy).toHaveLength(workers);
        expect(expandedBy.filter((n) => n > 0)).toHaveLength(sharesOut ? workers : 1);
        // Each state expanded once, by one worker: every state of a complete search.
        if (sequential.result.stats.complete) expect(sum(expandedBy)).toBe(sequential.result.stats.distinct);
      }
    }, 600_000);
  }
});

describe('the thread that searched while the workers booted hands its work over at a level boundary', () => {
  // The last: whether every worker gets states (the flapping HPA's levels are a few states wide; at depth 1, two for three workers).
  const cases: [string, number, number, boolean][] = [
    ['scenarios/incus-hpa-check-small.yaml', 2, 6, true],
    ['scenarios/incus-hpa-check-flapping.yaml', 3, 4, false],
    ['scenarios/terraform-check-crashed-lock.yaml', 2, 12, true],
    // More workers than the handed-over level has states: some rebuild nothing.
    ['scenarios/incus-hpa-check-flapping.yaml', 3, 1, false],
  ];
  for (const [file, workers, depth, everyWorker] of cases) {
    it(`${file}: ${workers} workers, handed over at depth ${depth} = 1 thread`, async () => {
      const { entry, scenario, base } = scenarioOf(file);
      const sequential = checkScenario(entry, scenario, base);
      // The states one thread holds at that boundary: a search bounded at that depth stops there.
      const upTo = checkScenario(entry, scenario, { ...base, maxDepth: depth }).result.stats.distinct;
      const parallel = await checkScenarioAsync(entry, scenario, { ...base, workers, handOverAtDepth: depth });
      expect(parallel.result.stats.workers).toBe(workers);
      expect(parallel.result.stats.handedOverAt).toEqual({ depth, distinct: upTo });
      expect(upTo).toBeLessThan(sequential.result.stats.distinct);
      expect(same(parallel)).toEqual(same(sequential));
      // The workers expanded what the calling thread had not: more than the states found after the hand-over, fewer than all.
      const expanded = sum(parallel.result.stats.expandedBy!);
      expect(expanded).toBeGreaterThan(sequential.result.stats.distinct - upTo);
      expect(expanded).toBeLessThan(sequential.result.stats.distinct);
      if (everyWorker) expect(parallel.result.stats.expandedBy!.every((n) => n > 0)).toBe(true);
      expect(formatReport(parallel)).toContain(`hand-over: this thread searched ${upTo} states to level ${depth} while the workers booted`);
    }, 600_000);
  }

  it('a bound met after the hand-over stops both alike', async () => {
    const { entry, scenario, base } = scenarioOf('scenarios/incus-hpa-check-small.yaml');
    const bounds: CheckOptions[] = [{ maxStates: 1_500 }, { maxDepth: 9 }];
    for (const bound of bounds) {
      const sequential = checkScenario(entry, scenario, { ...base, ...bound });
      const parallel = await checkScenarioAsync(entry, scenario, { ...base, ...bound, workers: 2, handOverAtDepth: 4 });
      expect(parallel.result.stats.handedOverAt?.depth).toBe(4);
      expect(parallel.result.stats.complete).toBe(false);
      expect(same(parallel)).toEqual(same(sequential));
    }
  }, 600_000);
});

/**
 * A worker thread that answers lookups in the tables it is sent, through VisitedSet.reader (loaded
 * by tsx, as parallel-boot.mjs does; its code is evaluated with the project as the working directory).
 */
function readerThread(): { ask: (tables: VisitedTables, queries: [number, number][]) => Promise<number[]>; close: () => Promise<number> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      (await import('tsx/esm/api')).register();
      const { VisitedSet } = await import(workerData.visitedSet);
      parentPort.on('message', ({ tables, queries }) => {
        const reader = VisitedSet.reader(tables);
        parentPort.postMessage(queries.map(([h, l]) => reader.get(h, l)));
      });
      parentPort.postMessage('ready');
    })();`,
    {
      eval: true,
      workerData: { visitedSet: new URL('../../sim/check/visited-set.ts', import.meta.url).href },
    },
  );
  const answers: ((m: unknown) => void)[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => {
      worker.on('message', (m: unknown) => answers.shift()?.(m));
      resolve();
    });
  });
  return {
    ask: async (tables, queries) => {
      await ready;
      return new Promise((resolve) => {
        answers.push((m) => resolve(m as number[])); // cast: the thread above answers with one id per query
        worker.postMessage({ tables, queries });
      });
    },
    close: () => worker.terminate(),
  };
}

describe('the shared visited set', () => {
  // Hashes as the explorer makes them (any 32-bit halves), 0:0 among them (remapped: it marks an empty slot).
  const hashes = Array.from({ length: 50_000 }, (_, i): [number, number] => (i === 0 ? [0, 0] : [Math.imul(i, 0x9e3779b1) >>> 0, i * 7]));

  it('a worker thread reads what the main thread wrote, in the same memory, and the grown table once it is sent anew', async () => {
    const visited = VisitedSet.shared();
    expect(visited.isShared).toBe(true);
    hashes.slice(0, 100).forEach(([h, l], id) => visited.add(h, l, id));
    const reader = readerThread();
    try {
      const before = visited.tables();
      expect(before.hi.buffer).toBeInstanceOf(SharedArrayBuffer);
      const all = hashes.slice(0, 200);
      expect(await reader.ask(before, all)).toEqual(all.map((_, i) => (i < 100 ? i : -1)));
      // Written after the worker got the tables, without growing them: it sees them in the memory it holds.
      hashes.slice(100, 200).forEach(([h, l], id) => visited.add(h, l, 100 + id));
      expect(visited.tables().hi).toBe(before.hi);
      expect(await reader.ask(before, all)).toEqual(all.map((_, i) => i));
      // Grown into new buffers: the worker reads them once they are posted.
      hashes.slice(200).forEach(([h, l], id) => visited.add(h, l, 200 + id));
      expect(visited.tables().hi).not.toBe(before.hi);
      expect(visited.tables().hi.buffer).toBeInstanceOf(SharedArrayBuffer);
      const sample = hashes.filter((_, i) => i % 97 === 0);
      expect(await reader.ask(visited.tables(), sample)).toEqual(sample.map((_, k) => k * 97));
      expect(await reader.ask(visited.tables(), [[1, 2]])).toEqual([-1]);
    } finally {
      await reader.close();
    }
  }, 120_000);

  it('a shared copy keeps the slots, so the same lookups', () => {
    const plain = new VisitedSet();
    hashes.forEach(([h, l], id) => plain.add(h, l, id));
    const shared = VisitedSet.shared(plain);
    expect(shared.size).toBe(plain.size);
    expect(shared.tables().hi).toEqual(plain.tables().hi);
    expect(hashes.every(([h, l], id) => shared.get(h, l) === id)).toBe(true);
  });

  it('a checkpoint of a book with a shared table writes and reads back', () => {
    const book = new SearchBook([], [], [], {}, () => 0);
    book.visited = VisitedSet.shared();
    hashes.forEach(([h, l], id) => book.admit(h, l, id - 1, -1, () => {}));
    const dir = mkdtempSync(join(TMP, 'checkpoint-'));
    writeCheckpoint(dir, 'shared', book.tables(), 0);
    const back = new SearchBook([], [], [], {}, () => 0);
    back.restore(readCheckpoint(dir).tables);
    expect(back.visited.size).toBe(hashes.length);
    expect(hashes.every(([h, l], id) => back.visited.get(h, l) === id && back.parentOf(id) === id - 1)).toBe(true);
  });
});
