import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { initialTransition, transition } from 'xstate';
import { loadScenario } from '../../sim/loops';
import type { LoopBinding } from '../../sim/model';
import type { TimelineEntry } from '../../sim/runner';
import type { StepState } from '../../sim/step';
import { Stepper } from '../../sim/step';
import { ActorMirror } from './actor-mirror';
import { SHIPPED_SCENARIOS } from './scenarios';

/**
 * The stepper is the simulator's only way of running a machine (runner, explorer, lab). Here it is
 * held to XState itself, for every shipped scenario of every loop: a real actor on a manual clock
 * receives the same events at the same times, and after every step both agree on the state, the
 * context and the delayed events pending (what XState has scheduled vs the stepper's queue); every
 * transition also agrees with XState's public pure `transition()` / `initialTransition()`.
 */
const STEPS = 250;
const scenarios = SHIPPED_SCENARIOS.filter((f) => !f.includes('/bench-'));

type AnyBinding = LoopBinding<unknown, unknown, unknown>;
const json = (v: unknown) => JSON.stringify(v);
const strip = (s: AnyMachineSnapshot) => ({ value: s.value, context: s.context, status: s.status });

function agree(state: StepState<unknown, unknown>, mirror: ActorMirror, where: string): void {
  const actor = mirror.actor.getSnapshot();
  expect(json(state.snapshot.value), `${where}: state`).toBe(json(actor.value));
  expect(json(state.snapshot.context), `${where}: context`).toBe(json(actor.context));
  const events = state.queue.flatMap((q) => (q.kind === 'event' ? [q] : []));
  expect(
    events.map((q) => q.at).sort((a, b) => a - b),
    `${where}: delayed events due`,
  ).toEqual(mirror.clock.pending());
  expect(events.map((q) => q.event.type).sort(), `${where}: delayed events scheduled`).toEqual(mirror.scheduledTypes());
}

function walk(binding: AnyBinding, config: unknown, world: unknown, timeline: readonly TimelineEntry<unknown, unknown>[]): number {
  const stepper = new Stepper(binding);
  let state = stepper.initial(config, world);
  const [publicInitial] = initialTransition(binding.machine, binding.machineInput(config));
  expect(json(strip(state.snapshot)), 'initialTransition').toBe(json(strip(publicInitial)));
  const mirror = new ActorMirror(binding.machine, binding.machineInput(config));
  agree(state, mirror, 'start');
  const entries = [...timeline].sort((a, b) => a.at - b.at);
  let steps = 0;
  for (; steps < STEPS; steps++) {
    const item = stepper.next(state);
    const entry = entries[0];
    const where = `step ${steps} t=${state.t}`;
    if (entry && (!item || entry.at <= item.at)) {
      entries.shift();
      state = { ...state, t: Math.max(state.t, entry.at) };
      mirror.clock.now = state.t;
      if ('config' in entry) {
        state = stepper.update(state, entry.config as Partial<unknown>);
        mirror.send(binding.configEvent(entry.config as Partial<unknown>));
      } else {
        state = stepper.inject(state, entry.fault);
        const command = binding.command?.(entry.fault);
        if (command) mirror.send(command);
        else if (binding.isControllerRestart?.(entry.fault)) mirror.restart(binding.machineInput(state.config));
      }
    } else if (item) {
      const before = state.snapshot;
      const ticked = stepper.tick(state)!;
      if (item.kind === 'event') {
        // The actor fires its own timer: it must be due exactly when the stepper's item is.
        expect(mirror.clock.fireNext(), `${where}: next timer`).toBe(item.at);
      } else {
        mirror.clock.now = ticked.state.t;
        if (ticked.event) mirror.send(ticked.event);
      }
      if (ticked.event) checkPublicTransition(binding, before, ticked.event, ticked.state.snapshot, where);
      state = ticked.state;
    } else break;
    agree(state, mirror, where);
  }
  return steps;
}

function checkPublicTransition(
  binding: AnyBinding,
  before: AnyMachineSnapshot,
  event: EventObject,
  after: AnyMachineSnapshot,
  where: string,
) {
  const [next] = transition(binding.machine, before, event);
  expect(json(strip(after)), `${where}: transition(${event.type})`).toBe(json(strip(next)));
}

describe('the stepper agrees with XState for every shipped scenario', () => {
  for (const file of scenarios) {
    it(file, () => {
      const { entry, scenario } = loadScenario(file);
      const steps = walk(entry.binding, scenario.config, scenario.world, scenario.timeline);
      expect(steps).toBeGreaterThan(5);
    });
  }
});
