// The real runner: the HPA machine with real actors, driven by XState's own actor (real timers),
// recording the same Frames as the simulator's runner (sim/runner.ts) so sim's timeline printer,
// the web lab and the tests read a real run like a simulated one. t is wall-clock ms since start.
import type { AnyActorRef, EventObject, InspectionEvent } from 'xstate';
import { createActor } from 'xstate';
import type { HpaConfig, HpaContext } from '../machines/incus-hpa';
import { hpaBinding } from '../sim/loops/incus-hpa';
import type { Frame, Phase, Trace } from '../sim/trace';
import { TRACE_VERSION, dottedState, phaseOf } from '../sim/trace';
import type { HpaWorldSummary } from '../sim/worlds/incus-hpa';
import type { Adoption } from './adopt';
import { adoptOwned } from './adopt';
import type { ApproveAct, OwnershipError, RealActorHooks } from './hpa-actors';
import { ownerOf, realHpaMachine } from './hpa-actors';
import { realHpaController } from './hpa-controller';
import type { RealHpaConfig, RealSettings } from './hpa-config';
import type { IncusClient, InstanceFull } from './incus';

export type RealFrame = Frame<HpaWorldSummary>;

export interface RealRunnerOptions {
  client: IncusClient;
  config: RealHpaConfig;
  dryRun?: boolean;
  approve?: ApproveAct;
  onFrame?: (frame: RealFrame) => void;
  /** Name of the run in the trace (default: the config file). */
  scenario?: string;
  /** Keep at most this many frames (the oldest are dropped): a service running for weeks. */
  maxFrames?: number;
}

type Snapshot = ReturnType<ReturnType<typeof realHpaMachine>['getInitialSnapshot']>;

export class RealHpaRunner {
  readonly frames: RealFrame[] = [];
  readonly epoch = Date.now();
  private settings: RealSettings;
  private config: HpaConfig;
  private lastList: InstanceFull[] = [];
  /** Deletes a policy asked for on instances without our key: refused, listed here. */
  readonly refusals: string[] = [];
  private notDone: string | undefined;
  private readonly abort = new AbortController();
  private readonly hooks: RealActorHooks;
  private actor: AnyActorRef | undefined;
  private snapshot: Snapshot | undefined;
  private readonly listeners = new Set<(s: Snapshot) => void>();

  constructor(private readonly options: RealRunnerOptions) {
    this.settings = options.config.settings;
    this.config = options.config.config;
    this.hooks = {
      client: options.client,
      settings: () => this.settings,
      clock: () => this.now(),
      epoch: this.epoch,
      ...(options.dryRun ? { dryRun: true } : {}),
      ...(options.approve ? { approve: options.approve } : {}),
      onList: (list) => { this.lastList = list; },
      onNotDone: (what) => { this.notDone = what; },
      onRefused: (e: OwnershipError) => { this.refusals.push(e.message); },
      signal: this.abort.signal,
    };
  }

  now(): number {
    return Date.now() - this.epoch;
  }

  /** Adopt what a previous run left (see adopt.ts), then start the loop. */
  async start(): Promise<Adoption> {
    const adoption = await adoptOwned(this.hooks, this.config);
    const parts = [`adopted ${adoption.adopted.length} owned pod(s)`];
    if (adoption.removed.length) parts.push(`removed ${adoption.removed.join(', ')} (stopped or above max)`);
    if (adoption.wouldRemove.length) parts.push(`dry run: would remove ${adoption.wouldRemove.join(', ')}`);
    if (adoption.waitedFor) parts.push(`waited for ${adoption.waitedFor} leftover operation(s)`);
    const machine = realHpaMachine(this.hooks);
    const actor = createActor(machine, {
      input: { config: this.config },
      inspect: (ev: InspectionEvent) => {
        if (ev.type === '@xstate.snapshot' && ev.actorRef === this.actor) this.record(ev.event, ev.snapshot as Snapshot);
      },
    });
    this.actor = actor;
    this.pushFrame('real.adopt', parts.join('; '), actor.getSnapshot() as Snapshot);
    actor.start();
    return adoption;
  }

  /** A config edit: applies from the machine's next phase (CONFIG.UPDATE), image/profiles at the next create. */
  update(next: RealHpaConfig): void {
    this.settings = next.settings;
    this.config = next.config;
    this.actor?.send(hpaBinding.configEvent(next.config));
  }

  /** Note a problem in the trace without touching the loop (e.g. an invalid config edit). */
  note(text: string): void {
    if (this.snapshot) this.pushFrame('real.note', text, this.snapshot);
  }

  get phase(): Phase | undefined {
    return this.snapshot ? phaseOf(this.snapshot.tags) : undefined;
  }

  get context(): HpaContext | undefined {
    return this.snapshot?.context;
  }

  /** Resolves with the first snapshot (from now on, or the current one) that satisfies `test`. */
  waitFor(test: (s: Snapshot) => boolean, timeoutMs = 60_000): Promise<Snapshot> {
    if (this.snapshot && test(this.snapshot)) return Promise.resolve(this.snapshot);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.listeners.delete(check); reject(new Error(`timed out after ${timeoutMs} ms waiting for the HPA loop`)); }, timeoutMs);
      const check = (s: Snapshot) => {
        if (!test(s)) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(s);
      };
      this.listeners.add(check);
    });
  }

  /** One period: resolves when the loop reaches wait (done) or backoff (an error). */
  async runOnce(timeoutMs = 300_000): Promise<'done' | 'error'> {
    const s = await this.waitFor((snap) => snap.matches('waiting') || snap.matches('backoff'), timeoutMs);
    return s.matches('waiting') ? 'done' : 'error';
  }

  /** Stop cleanly: an act in progress (create, stop+delete) is finished first. */
  async stop(): Promise<void> {
    if (this.snapshot && phaseOf(this.snapshot.tags) === 'act') {
      await this.waitFor((s) => phaseOf(s.tags) !== 'act', 180_000).catch(() => undefined);
    }
    this.actor?.stop();
    this.abort.abort(new Error('runner stopped'));
  }

  trace(): Trace<HpaWorldSummary> {
    return {
      version: TRACE_VERSION,
      loop: 'incus-hpa',
      scenario: this.options.scenario ?? this.options.config.file,
      seed: 0,
      policy: this.config.policy,
      frames: this.frames,
    };
  }

  private record(event: EventObject, snapshot: Snapshot): void {
    // The delete being answered is the previous snapshot's first pending action (shifted since).
    const acted = this.snapshot?.context.pending[0];
    this.snapshot = snapshot;
    let note = hpaBinding.note?.(snapshot.context, event);
    if (event.type === 'xstate.done.actor.createPod' || event.type === 'xstate.done.actor.deletePod') {
      if (this.notDone) note = this.notDone;
      else if (acted?.kind === 'delete') note = `deleted ${acted.name}`;
      this.notDone = undefined;
    }
    this.pushFrame(event.type, note, snapshot);
    for (const l of [...this.listeners]) l(snapshot);
  }

  private summary(): HpaWorldSummary {
    const name = this.config.name;
    const shown = this.lastList.filter((i) => ownerOf(i) === name || i.name.startsWith(this.config.namePrefix));
    const pods = shown.map((i) => {
      const usage = i.state?.memory?.usage ?? 0;
      const total = i.state?.memory?.total ?? 0;
      const status = (i.state?.status ?? i.status) as HpaWorldSummary['pods'][number]['status'];
      return { name: i.name, status, owned: ownerOf(i) === name, usage, total,
        pct: total > 0 && status === 'Running' ? Math.floor((usage * 100) / total) : null };
    });
    // Real mode cannot see the demand itself: report what the owned running pods use.
    const demand = pods.filter((p) => p.owned && p.status === 'Running').reduce((s, p) => s + p.usage, 0);
    // Unowned instances are never touched in real mode (refusals are listed in `refusals`).
    return { demand, pods, apiCalls: this.options.client.requestCount, unownedTouched: 0 };
  }

  private pushFrame(event: string, note: string | undefined, snapshot: Snapshot): void {
    const t = this.now();
    const frame: RealFrame = {
      t, state: dottedState(snapshot.value), phase: phaseOf(snapshot.tags), event, world: this.summary(),
      controller: realHpaController(snapshot.context, this.lastList, t, this.epoch),
    };
    if (note) frame.note = note;
    this.frames.push(frame);
    if (this.options.maxFrames !== undefined && this.frames.length > this.options.maxFrames) this.frames.splice(0, this.frames.length - this.options.maxFrames);
    this.options.onFrame?.(frame);
  }
}
