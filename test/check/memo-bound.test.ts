import { assign, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { MemoMachine } from '../../sim/memo-machine';
import { PureMachine } from '../../sim/pure-machine';

// A counter: every count is a distinct snapshot, so a small cap flushes the memo often.
const counter = setup({ types: { context: {} as { n: number }, events: {} as { type: 'INC' } | { type: 'DEC' } } }).createMachine({
  context: { n: 0 },
  on: { INC: { actions: assign({ n: ({ context }) => context.n + 1 }) }, DEC: { actions: assign({ n: ({ context }) => context.n - 1 }) } },
});

describe('the transition memo is bounded (sim/memo-machine.ts)', () => {
  it('flushes past its cap and still answers every transition as XState does, old snapshots included', () => {
    const memo = new MemoMachine(counter, 100); // words of keys: a few snapshots and steps
    const pure = new PureMachine(counter);
    const [start] = memo.initial(undefined);
    const kept = [start];
    let s = start;
    // Up to 12 and back down: 13 distinct snapshots through a cap of a few.
    for (const type of [...Array<'INC'>(12).fill('INC'), ...Array<'DEC'>(12).fill('DEC')] as const) {
      const [next] = memo.transition(s, { type });
      expect((next.context as { n: number }).n).toBe((pure.transition(s, { type })[0].context as { n: number }).n);
      s = next;
      kept.push(s);
    }
    expect(memo.stats.flushes).toBeGreaterThan(2);
    // Snapshots interned before a flush keep their ids; a later snapshot never takes one of them, so
    // a step memoised for it is never answered for an old one (n+1 from each, whatever was flushed).
    for (const old of kept) {
      const n = (old.context as { n: number }).n;
      expect((memo.transition(old, { type: 'INC' })[0].context as { n: number }).n).toBe(n + 1);
      expect((memo.transition(old, { type: 'INC' })[0].context as { n: number }).n).toBe(n + 1);
    }
    expect(memo.stats.hits).toBeGreaterThan(0);
  });
});

describe('the transition memo stops when it does not pay', () => {
  // The memo times itself; these clocks make its judgement the test's. `xstate` advances only while
  // XState computes a transition (the machine's own action moves it), `everyRead` at each reading.
  let virtual = 0;
  const costly = setup({ types: { context: {} as { n: number }, events: {} as { type: 'INC' } | { type: 'DEC' } } }).createMachine({
    context: { n: 0 },
    on: {
      INC: { actions: assign({ n: ({ context }) => ((virtual += 100), context.n + 1) }) },
      DEC: { actions: assign({ n: ({ context }) => ((virtual += 100), context.n - 1) }) },
    },
  });
  const xstate = () => virtual;
  const upAndDown = (memo: MemoMachine) => {
    // Up and down between the same few counts: after the first round, every transition is a hit.
    let [s] = memo.initial(undefined);
    for (let i = 0; i < 5000; i++) s = memo.transition(s, { type: i % 8 < 4 ? 'INC' : 'DEC' })[0];
  };

  // Every INC reaches a new count: no transition is ever asked twice, so the memo never hits.
  it('a memo with too few hits lets XState answer, and still answers as XState does', () => {
    const memo = new MemoMachine(costly, undefined, xstate);
    const pure = new PureMachine(costly);
    let [s] = memo.initial(undefined);
    for (let i = 0; i < 5000; i++) {
      const [next] = memo.transition(s, { type: 'INC' });
      expect((next.context as { n: number }).n).toBe((pure.transition(s, { type: 'INC' })[0].context as { n: number }).n);
      s = next;
    }
    expect(memo.stats.stoppedAfter).toBe(1024);
    expect(memo.stats.misses).toBe(1023);
  });

  it('a memo that hits, and whose keys cost less than XState, keeps going', () => {
    const memo = new MemoMachine(costly, undefined, xstate);
    upAndDown(memo);
    expect(memo.stats.stoppedAfter).toBeUndefined();
    expect(memo.stats.hits).toBeGreaterThan(4900);
  });

  it('a memo that hits but whose keys cost as much as XState stops', () => {
    // Every reading of the clock moves it by 1 and XState adds nothing: a hit costs what a transition
    // costs, and each miss costs it three times over, so the memo only ever loses.
    let reads = 0;
    const memo = new MemoMachine(counter, undefined, () => ++reads);
    upAndDown(memo);
    expect(memo.stats.stoppedAfter).toBe(1024);
    expect(memo.stats.hits).toBeGreaterThan(0.8 * 1023);
  });
});
