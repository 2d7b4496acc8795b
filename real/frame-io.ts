// frame.io of a real run (sim/trace-io.ts): what the machine was given and what each actor answered,
// taken from the very event the machine received, so `loopscope conform` replays exactly that.
import type { EventObject } from 'xstate';
import type { HpaAction, HpaConfig, Observation } from '../machines/incus-hpa';
import { errorMessage } from '../machines/named-actor';
import type { HpaFrameIo, IoError } from '../sim/trace-io';
import { ownerOf } from './hpa-actors';
import type { InstanceFull } from './incus';
import { IncusError } from './incus';
import { errorKind } from './run-facts';

function ioError(error: unknown): IoError {
  const server = error instanceof IncusError && error.serverMessage ? { server: error.serverMessage } : {};
  return { message: errorMessage(error), kind: errorKind(error), ...server };
}

export interface IoContext {
  /** The previous snapshot's first pending action: the one a delete's answer is about. */
  acted: HpaAction | undefined;
  /** The last observe's full owned listing (before the garbage collector's names were left out). */
  lastList: readonly InstanceFull[];
  config: HpaConfig;
  /** The act was not done (dry run, operator's skip), in words. */
  notDone: string | undefined;
}

/** The I/O record of the event a frame records, or undefined for events that carry none (timers, stop). */
export function frameIoOf(event: EventObject, at: IoContext): HpaFrameIo | undefined {
  const failed = (event as { error?: unknown }).error; // cast: error events carry it, others leave it undefined
  const notDone = at.notDone === undefined ? {} : { notDone: at.notDone };
  switch (event.type) {
    case 'CONFIG.UPDATE':
      return { kind: 'config', config: (event as { config?: Partial<HpaConfig> }).config ?? {} }; // cast: the machine's HpaEvent types CONFIG.UPDATE's config
    case 'xstate.done.actor.observe': {
      const output = (event as { output?: Observation }).output; // cast: observe's done event carries its output, typed in setup()
      if (!output) return undefined;
      const shown = new Set(output.instances.map((i) => i.name));
      const hidden = at.lastList.filter((i) => ownerOf(i) === at.config.name && !shown.has(i.name)).map((i) => i.name);
      return { kind: 'observe', output, ...(hidden.length ? { hidden } : {}) };
    }
    case 'xstate.error.actor.observe':
      return { kind: 'observe', error: ioError(failed) };
    case 'xstate.done.actor.createPod': {
      const output = (event as { output?: { name: string } }).output; // cast: createPod's done event carries CreateOutput
      return output ? { kind: 'create', output: { name: output.name }, ...notDone } : undefined;
    }
    case 'xstate.error.actor.createPod':
      return { kind: 'create', error: ioError(failed) };
    case 'xstate.done.actor.deletePod':
    case 'xstate.error.actor.deletePod': {
      if (at.acted?.kind !== 'delete') return undefined;
      const input = { name: at.acted.name, waitForStop: at.acted.waitForStop };
      return event.type.startsWith('xstate.error')
        ? { kind: 'delete', input, error: ioError(failed) }
        : { kind: 'delete', input, ...notDone };
    }
    default:
      return undefined;
  }
}
