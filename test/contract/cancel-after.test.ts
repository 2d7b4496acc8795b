import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import type { LoopBinding } from '../../sim/model';
import { PureMachine } from '../../sim/pure-machine';
import { Runner } from '../../sim/runner';
import { builtinAction } from '../../sim/xstate-actions';
import { ActorMirror } from './actor-mirror';

/**
 * A machine that leaves a state with a pending `after` and enters it again before the delay would
 * have fired: XState cancels the first timer on exit (`xstate.cancel` with its sendId) and starts
 * a new one, so the delayed transition happens 1 s after the re-entry, never 1 s after the first entry.
 */
const machine = setup({
  types: { context: {} as { fired: number[] }, events: {} as { type: 'POKE' } | { type: 'BACK' } | { type: 'NOW'; t: number } },
}).createMachine({
  id: 'reenter',
  context: { fired: [] },
  initial: 'armed',
  on: { NOW: { actions: assign({ fired: ({ context, event }) => [...context.fired, event.t] }) } },
  states: {
    armed: { tags: ['wait'], after: { 1000: 'fired' }, on: { POKE: 'away' } },
    away: { tags: ['act'], on: { BACK: 'armed' } },
    fired: { tags: ['observe'], on: { POKE: 'away' } },
  },
});

type Config = { event: 'POKE' | 'BACK' };
const binding: LoopBinding<null, never, Config> = {
  loop: 'test-reenter',
  machine,
  world: {
    begin: () => {
      throw new Error('no actors');
    },
    complete: () => {
      throw new Error('no actors');
    },
    inject: (world) => ({ world, note: '' }),
    summary: () => null,
  },
  machineInput: () => undefined,
  configEvent: (config) => ({ type: config.event ?? 'POKE' }),
};

describe('a cancelled `after` is removed (XState: scheduler.cancel on exit)', () => {
  const timeline = [
    { at: 500, config: { event: 'POKE' as const } },
    { at: 600, config: { event: 'BACK' as const } },
  ];

  it('the runner fires the re-entered delay at 1.6 s, not the stale one at 1 s', () => {
    const runner = new Runner(binding, { scenario: 'reenter', seed: 1, world: null, config: { event: 'POKE' }, timeline });
    runner.run(5000);
    const fired = runner.frames.filter((f) => f.state === 'fired').map((f) => f.t);
    expect(fired).toEqual([1600]);
  });

  it('an XState actor on a simulated clock receives the same events at the same times', () => {
    const runner = new Runner(binding, { scenario: 'reenter', seed: 1, world: null, config: { event: 'POKE' }, timeline });
    runner.run(5000);
    const mirror = new ActorMirror(machine, undefined);
    const seen: { t: number; state: string }[] = [{ t: 0, state: String(mirror.actor.getSnapshot().value) }];
    mirror.actor.subscribe((s) => seen.push({ t: mirror.clock.now, state: String(s.value) }));
    mirror.clock.now = 500;
    mirror.send({ type: 'POKE' });
    mirror.clock.now = 600;
    mirror.send({ type: 'BACK' });
    while (mirror.clock.fireNext() !== undefined && mirror.clock.now <= 5000);
    expect(runner.frames.map((f) => ({ t: f.t, state: f.state }))).toEqual(seen);
  });

  it("XState's cancel action still has the shape the stepper reads ({ sendId })", () => {
    const pure = new PureMachine(machine);
    const [armed] = pure.initial(undefined);
    const [, actions] = pure.transition(armed, { type: 'POKE' });
    const cancels = actions.filter((a) => a.type === 'xstate.cancel').map(builtinAction);
    expect(cancels).toHaveLength(1);
    expect(cancels[0]).toEqual({ type: 'xstate.cancel', params: { sendId: expect.stringContaining('xstate.after.1000') } });
  });

  it('a changed shape fails loudly instead of dropping the timer', () => {
    expect(() =>
      builtinAction({ type: 'xstate.cancel', params: 'xstate.after.1000.reenter.armed', info: {} as never, exec: undefined }),
    ).toThrow(/expected params \{ sendId: string \}/);
  });
});
