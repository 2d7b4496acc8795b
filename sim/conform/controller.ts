// The controller side of `loopscope conform`: the same HPA machine, stepped through XState's own
// pure transition (sim/pure-machine.ts, as the simulator's Stepper does), fed the recorded answers of
// its actors and the recorded timer events. Each recorded frame must show the state and the
// decisions this replay reaches; a timer the machine did not set, or a backoff cut short, diverges.
import type { EventObject } from 'xstate';
import type { HpaAction, HpaConfig, HpaContext, HpaEvent } from '../../machines/incus-hpa';
import type { PolicyModules } from '../../machines/incus-hpa';
import { NO_POLICY_MODULES, incusHpaMachine, providePolicyModules } from '../../machines/incus-hpa';
import type { HpaController } from '../loops/incus-hpa-controller-schema';
import { PureMachine } from '../pure-machine';
import type { ExecutableAction } from '../pure-machine';
import { doneEvent } from '../step';
import { dottedState, phaseOf } from '../trace';
import { formatDuration } from '../units';
import type { ViewSnapshot } from '../view-snapshot';
import { builtinAction } from '../xstate-actions';
import { Diverged } from './diverged';

/** A timer may fire this much before its delay is up, as measured between two frames (ms). */
const TIMER_SLACK_MS = 20;

export interface Spawned {
  id: string;
  src: string;
  input: unknown;
  at: number;
}
interface Timer {
  event: EventObject;
  sendId: string | undefined;
  setAt: number;
  delay: number;
}

const actionOf = (a: HpaAction) => (a.kind === 'create' ? { kind: 'create' as const } : { kind: 'delete' as const, name: a.name });

/** The parts of frame.controller the machine decides (pods and averagePercent describe the world at the frame). */
function decidedPart(
  c: Pick<HpaController, 'policy' | 'threshold' | 'minPods' | 'maxPods' | 'decision' | 'pending' | 'consecutiveErrors' | 'lastError'>,
) {
  return {
    policy: c.policy,
    threshold: c.threshold,
    minPods: c.minPods,
    maxPods: c.maxPods,
    decision: c.decision,
    pending: c.pending,
    consecutiveErrors: c.consecutiveErrors,
    lastError: c.lastError,
  };
}

function decidedOf(ctx: HpaContext) {
  const d = ctx.decision;
  return decidedPart({
    policy: ctx.config.policy,
    threshold: ctx.config.memoryThreshold,
    minPods: ctx.config.minPods,
    maxPods: ctx.config.maxPods,
    decision: d
      ? {
          observedAt: ctx.observation?.at ?? 0,
          averagePercent: d.averagePercent,
          running: d.running,
          desired: d.desired,
          actions: d.actions.map(actionOf),
        }
      : null,
    pending: ctx.pending.map(actionOf),
    consecutiveErrors: ctx.consecutiveErrors,
    lastError: ctx.lastError,
  });
}

export class ControllerReplay {
  private readonly pure: PureMachine;
  snapshot: ViewSnapshot<HpaContext>;
  private readonly timers = new Map<string, Timer>();
  /** Periods that ended before their timer (real mode's lifecycle wake-ups). */
  earlyPeriods = 0;

  /** `modules`: the policy modules the run used (sim/conform/load.ts loadTracePolicies). */
  constructor(
    config: HpaConfig,
    t: number,
    private readonly onSpawn: (s: Spawned) => void,
    modules: PolicyModules = NO_POLICY_MODULES,
  ) {
    this.pure = new PureMachine(providePolicyModules(incusHpaMachine, modules));
    const [snapshot, actions] = this.pure.initial({ config });
    this.snapshot = snapshot;
    this.execute(actions, t);
  }

  get context(): HpaContext {
    return this.snapshot.context;
  }
  get state(): string {
    return dottedState(this.snapshot.value);
  }

  /** A timer event of the frame: one the machine set, and not before its time (a wait may end early: a wake-up). */
  timer(type: string, t: number): void {
    const entry = [...this.timers.entries()].find(([, tm]) => tm.event.type === type);
    if (!entry) {
      const set = [...this.timers.values()].map((tm) => tm.event.type);
      throw new Diverged(
        'controller',
        `timer event ${type}`,
        type,
        set.length ? set.map((s) => `${s} (the timer the machine set)`) : ['no timer: the machine set none here'],
      );
    }
    const [key, tm] = entry;
    const early = tm.setAt + tm.delay - t;
    if (early > TIMER_SLACK_MS) {
      // The period is the one timer a wake-up may end early (real/hpa-runner.ts fireWake, waiting only).
      if (!this.snapshot.matches('waiting')) {
        throw new Diverged('controller', `${type} fired ${early} ms early`, `after ${formatDuration(t - tm.setAt)}`, [
          `after ${formatDuration(tm.delay)} (the machine's delay; only a wait may end early)`,
        ]);
      }
      this.earlyPeriods++;
    }
    this.timers.delete(key);
    this.step(tm.event, t);
  }

  /** An answer of `childId` is recorded: the machine must be running that actor. */
  expectChild(childId: string): void {
    if (this.snapshot.children[childId] !== undefined) return;
    const running = Object.keys(this.snapshot.children);
    throw new Diverged('controller', `an answer of ${childId}`, `${childId} answered`, [
      running.length
        ? `an answer of ${running.join(', ')} (what the machine runs in ${this.state})`
        : `no answer: the machine runs no actor in ${this.state}`,
    ]);
  }

  /** An invoked actor's answer, as the Stepper delivers one (sim/step.ts doneEvent). */
  answer(childId: string, result: { ok: true; output?: unknown } | { ok: false; error: string }, t: number): void {
    this.expectChild(childId);
    this.step(doneEvent(childId, result), t);
  }

  config(config: Partial<HpaConfig>, t: number): void {
    const event: HpaEvent = { type: 'CONFIG.UPDATE', config };
    this.step(event, t);
  }

  /** The recorded frame against the replay: state, phase and the machine's decisions. */
  compare(frame: { state: string; phase: string; controller?: HpaController }): void {
    if (frame.state !== this.state || frame.phase !== phaseOf(this.snapshot.tags)) {
      throw new Diverged('controller', 'state', `${frame.state} (${frame.phase})`, [
        `${this.state} (${phaseOf(this.snapshot.tags)}): the machine fed the recorded answers is there`,
      ]);
    }
    if (!frame.controller) return;
    const mine = decidedOf(this.context);
    const theirs = decidedPart(frame.controller);
    const keys = Object.keys(mine) as (keyof typeof mine)[]; // cast: Object.keys says string[]; these are mine's own keys
    for (const key of keys) {
      const a = JSON.stringify(theirs[key]);
      const b = JSON.stringify(mine[key]);
      if (a !== b) throw new Diverged('controller', `controller.${key}`, a, [`${b}: what the machine decides on the recorded answers`]);
    }
  }

  private step(event: EventObject, t: number): void {
    const [snapshot, actions] = this.pure.transition(this.snapshot, event);
    this.snapshot = snapshot;
    this.execute(actions, t);
  }

  /** As the Stepper executes them (sim/step.ts): spawns become acts, delayed raises timers, cancels drop them. */
  private execute(actions: ExecutableAction[], t: number): void {
    for (const executed of actions) {
      const action = builtinAction(executed);
      if (action.type === 'xstate.spawnChild') {
        this.onSpawn({ id: action.params.id, src: String(action.params.src), input: action.params.input, at: t });
      } else if (action.type === 'xstate.raise' && action.params.delay !== undefined) {
        const key = action.params.id ?? `${action.params.event.type}#${t}`;
        this.timers.set(key, { event: action.params.event, sendId: action.params.id, setAt: t, delay: action.params.delay });
      } else if (action.type === 'xstate.cancel') {
        this.timers.delete(action.params.sendId);
      }
    }
  }
}
