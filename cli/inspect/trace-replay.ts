// `loopscope trace --inspect`: a trace file (a sim run, a counterexample, a real run) told again to an
// XState inspector. A file holds what each frame recorded, not the machine's context, so each
// snapshot carries the frame's state as the machine's value (the dotted path made nested again) and,
// as its context, the frame's controller and world summaries; the loop's machine, named by the
// trace, is announced with its definition so a receiver can draw it. Events and times are the frames'.
import type { StateValue } from 'xstate';
import { loopById } from '../../sim/loops/registry';
import type { Trace } from '../../sim/trace';
import type { InspectSocket } from './inspect-socket';
import { inspectRun } from './run-inspection';

/** "acting.creating" → { acting: 'creating' }: the value XState gives that state. */
export function stateValueOf(dotted: string): StateValue {
  const [head = '', ...rest] = dotted.split('.');
  return rest.length === 0 ? head : { [head]: stateValueOf(rest.join('.')) };
}

/** Tells every frame of `trace`; false when the trace names a loop this loopscope does not have. */
export function replayTrace(socket: InspectSocket, trace: Trace): boolean {
  const entry = loopById(trace.loop);
  if (!entry) return false;
  const inspection = inspectRun(socket, entry.binding.machine, `${trace.loop}:${trace.scenario}`);
  for (const frame of trace.frames) {
    const context = { ...(frame.controller ? { controller: frame.controller } : {}), world: frame.world };
    // The event's type is all a frame keeps of it; world.* frames and a controller restart are changes
    // the machine was not sent (sim/runner.ts).
    const toldByWorld = frame.event.startsWith('world.') || frame.event === 'controller.restart';
    const event = toldByWorld ? undefined : { type: frame.event };
    inspection.frame(frame, { status: 'active', value: stateValueOf(frame.state), context }, event);
  }
  return true;
}
