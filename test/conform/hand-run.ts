// Hand-made real-format traces for the conform tests: the HPA machine as a real XState actor on a
// manual clock (as test/contract/actor-mirror.ts), its actors answered by the test, each snapshot
// recorded as real mode records it — frame.io by real/frame-io.ts, frame.controller by the one
// summary function — so a trace is what `loopscope real` would write for those answers.
import type { Actor, AnyMachineSnapshot, AnyStateMachine, EventObject, InspectionEvent } from 'xstate';
import { createActor, fromPromise } from 'xstate';
import type { HpaConfig, HpaContext, ObservedInstance, PolicyModules } from '../../machines/incus-hpa';
import { DEFAULT_CONFIG, NO_POLICY_MODULES, incusHpaMachine, providePolicyModules } from '../../machines/incus-hpa';
import { frameIoOf } from '../../real/frame-io';
import { hpaController } from '../../sim/loops/incus-hpa-controller';
import { doneEvent } from '../../sim/step';
import { dottedState, phaseOf } from '../../sim/trace';
import type { HpaFrameIo } from '../../sim/trace-io';
import { ManualClock } from '../contract/actor-mirror';

export const MiB = 1024 * 1024;
export const HAND_CONFIG: HpaConfig = {
  ...DEFAULT_CONFIG,
  name: 'hand',
  namePrefix: 'pod-',
  minPods: 2,
  maxPods: 3,
  memoryThreshold: 50,
  policy: 'fixed',
  periodMs: 1_000,
  limitsMemoryBytes: 64 * MiB,
};

export interface HandFrame {
  t: number;
  state: string;
  phase: string;
  event: string;
  world: object;
  controller: ReturnType<typeof hpaController>;
  note?: string;
  io?: HpaFrameIo;
}
export interface HandTrace {
  version: 2;
  loop: 'incus-hpa';
  scenario: string;
  seed: number;
  policy: string;
  frames: HandFrame[];
}

/** A running pod as Incus shows it (64 MiB limit), created at `createdAt`. */
export const running = (name: string, createdAt: number, usage = 8 * MiB, owner = 'hand'): ObservedInstance => ({
  name,
  status: 'Running',
  owner,
  memoryUsage: usage,
  memoryTotal: 64 * MiB,
  createdAt,
});

export class HandRun {
  readonly clock = new ManualClock();
  readonly frames: HandFrame[] = [];
  private readonly actor: Actor<AnyStateMachine>;
  private observation: { at: number; instances: ObservedInstance[] } = { at: 0, instances: [] };

  /** `modules`: the policy modules a module `config.policy` names (as a real run loads them). */
  constructor(
    readonly config: HpaConfig = HAND_CONFIG,
    private readonly modules: PolicyModules = NO_POLICY_MODULES,
  ) {
    const inert = Object.fromEntries(
      ['observe', 'createPod', 'deletePod'].map((n) => [n, fromPromise(() => new Promise<never>(() => {}))]),
    );
    const machine = providePolicyModules(incusHpaMachine, modules).provide({ actors: inert });
    let previous: AnyMachineSnapshot | undefined;
    this.actor = createActor(machine, {
      input: { config },
      clock: this.clock,
      inspect: (ev: InspectionEvent) => {
        if (ev.type !== '@xstate.snapshot' || ev.actorRef !== this.actor) return;
        const snapshot = ev.snapshot as AnyMachineSnapshot;
        const io = frameIoOf(ev.event, {
          acted: (previous?.context as HpaContext | undefined)?.pending[0],
          lastList: [],
          config: (snapshot.context as HpaContext).config,
          notDone: undefined,
        });
        this.push(ev.event.type, snapshot, io);
        previous = snapshot;
      },
    });
    const initial = this.actor.getSnapshot() as AnyMachineSnapshot;
    this.push('real.adopt', initial, { kind: 'start', config });
    this.actor.start();
  }

  private push(event: string, s: AnyMachineSnapshot, io: HpaFrameIo | undefined): void {
    const frame: HandFrame = {
      t: this.clock.now,
      state: dottedState(s.value),
      phase: phaseOf(s.tags),
      event,
      world: { demand: 0, pods: [], apiCalls: 0, unownedTouched: 0 },
      controller: hpaController(s.context as HpaContext, { ...this.observation, at: this.clock.now }, this.modules),
    };
    if (io) frame.io = io;
    this.frames.push(frame);
  }

  /** Moves the clock to `t` (no timer fires) — the time an answer comes. */
  at(t: number): this {
    this.clock.now = t;
    return this;
  }

  private answer(child: string, result: { ok: true; output?: unknown } | { ok: false; error: string }, error?: unknown): void {
    const event: EventObject = doneEvent(child, result);
    // The real actors reject with Incus' typed errors; the record keeps message and kind.
    this.actor.send(error === undefined ? event : { ...event, error });
  }

  observe(instances: ObservedInstance[], at = this.clock.now): this {
    this.observation = { at, instances };
    this.answer('observe', { ok: true, output: { at, instances } });
    return this;
  }

  created(name: string): this {
    this.answer('createPod', { ok: true, output: { name } });
    return this;
  }
  deleted(): this {
    this.answer('deletePod', { ok: true });
    return this;
  }
  failed(child: 'observe' | 'createPod' | 'deletePod', error: Error): this {
    this.answer(child, { ok: false, error: error.message }, error);
    return this;
  }

  /** Fires the machine's next timer (compareTime, period, backoff) at its due time. */
  timer(): this {
    this.clock.fireNext();
    return this;
  }

  trace(): HandTrace {
    return { version: 2, loop: 'incus-hpa', scenario: 'hand', seed: 0, policy: this.config.policy, frames: structuredClone(this.frames) };
  }
}
