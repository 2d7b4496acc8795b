import { fromPromise } from 'xstate';

/**
 * A placeholder for a machine's side effect, typed by what it takes and returns. A machine
 * names its effects; a world (sim/ or real/) implements them with machine.provide().
 */
export function namedActor<Output, Input>(name: string) {
  return fromPromise<Output, Input>(async () => {
    throw new Error(`actor "${name}" has no implementation: attach a world with machine.provide()`);
  });
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
