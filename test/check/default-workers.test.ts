// --workers' default is what wins on the machine that runs it: one thread below 4 cores (two
// workers lose to one on 2 cores, docs/benchmarks.md), one per core from 4; the report says which.
import { expect, it } from 'vitest';
import { PARALLEL_FROM_CORES, defaultWorkers } from '../../sim/check/parallel';

it('one thread below 4 cores, one per core from 4, and a line saying so', () => {
  expect(PARALLEL_FROM_CORES).toBe(4);
  for (const cores of [1, 2, 3]) {
    const choice = defaultWorkers(cores);
    expect(choice.workers).toBe(1);
    expect(choice.line).toMatch(new RegExp(`^workers: 1, the default on ${cores} cores?\\b.*wins from 4 cores`));
  }
  for (const cores of [4, 8, 64]) {
    const choice = defaultWorkers(cores);
    expect(choice.workers).toBe(cores);
    expect(choice.line).toMatch(new RegExp(`^workers: ${cores}, the default here`));
  }
});
