// `loopscope conform`: replays a real run of the Incus HPA against the model. The controller side
// (controller.ts) feeds the recorded actor answers to the same machine and holds each frame to it;
// the world side (world.ts) holds every answer to the simulated world plus the environment moves of
// its fault vocabulary; the properties run as monitors (monitors.ts). The first divergence ends it.
import type { HpaConfig, PolicyModules } from '../../machines/incus-hpa';
import { NO_POLICY_MODULES } from '../../machines/incus-hpa';
import { InputError } from '../scenario/errors';
import { controllerOf } from '../trace';
import type { HpaFrameIo } from '../trace-io';
import type { Spawned } from './controller';
import { ControllerReplay } from './controller';
import type { DivergencePart } from './diverged';
import { Diverged } from './diverged';
import type { RealTrace } from './load';
import type { PropertyResult } from './monitors';
import { Monitors } from './monitors';
import type { EnvMoveUsed } from './world';
import { WorldReplay } from './world';

export interface Divergence {
  frame: number;
  t: number;
  event: string;
  part: DivergencePart;
  what: string;
  recorded: string;
  /** What the model allowed instead (each with why). */
  allowed: readonly string[];
}

export interface ConformReport {
  file: string;
  scenario: string;
  policy: string;
  frames: number;
  /** No divergence from the model (controller and world) up to the end of the trace. */
  conforms: boolean;
  /** No promised property was violated on a monitored frame. */
  promisesKept: boolean;
  divergence?: Divergence;
  replayed: { machineEvents: number; observations: number; acts: number; configEdits: number; earlyPeriods: number };
  /** Environment moves the model needed to explain the run, in order. */
  envMoves: EnvMoveUsed[];
  /** What real mode did that the model takes as given (dry runs, guards, the seed's delete). */
  notes: string[];
  properties: PropertyResult[];
}

const ACTOR_EVENT = /^xstate\.(done|error)\.actor\.(observe|createPod|deletePod)$/;
const IO_KIND = { observe: 'observe', createPod: 'create', deletePod: 'delete' } as const;

/** `modules`: the policy modules the run used, loaded by loadTracePolicies. */
export function conform(file: string, real: RealTrace, modules: PolicyModules = NO_POLICY_MODULES): ConformReport {
  const { trace, ios, start } = real;
  const counts = { machineEvents: 0, observations: 0, acts: 0, configEdits: 0 };
  let ctrl: ControllerReplay | undefined;
  const config = (): HpaConfig => ctrl?.context.config ?? start;
  const world = new WorldReplay(config);
  const monitors = new Monitors(start);
  const spawned = new Map<string, Spawned>();
  const onSpawn = (s: Spawned) => {
    spawned.set(s.id, s);
    if (s.src === 'observe') world.beginObserve(s.at);
    else if (s.src === 'createPod' || s.src === 'deletePod')
      world.beginAct(s.src, s.input as { name?: string; waitForStop?: boolean }, s.at); // cast: createPod/deletePod's input, typed in setup()
  };
  let divergence: Divergence | undefined;

  for (let i = 0; i < trace.frames.length && !divergence; i++) {
    const frame = trace.frames[i]!;
    const io = ios[i];
    const { t, event } = frame;
    try {
      if (i === 0) ctrl = new ControllerReplay(start, t, onSpawn, modules);
      else if (event === 'xstate.stop') break;
      else if (event.startsWith('real.'))
        continue; // the runner's own notes (adoption, gc, lease): no machine event
      else if (event === 'xstate.init') {
        /* the actor started: the initial state, compared below */
      } else if (event.startsWith('xstate.after.')) ctrl!.timer(event, t);
      else if (event === 'CONFIG.UPDATE') {
        if (io?.kind !== 'config')
          throw new InputError(file, `frames[${i}].io`, 'expected the config record { kind: "config", config } of a CONFIG.UPDATE frame');
        ctrl!.config(io.config, t);
        counts.configEdits++;
      } else {
        const m = ACTOR_EVENT.exec(event);
        const how = m?.[1] === 'done' || m?.[1] === 'error' ? m[1] : undefined;
        const actor = m?.[2] === 'observe' || m?.[2] === 'createPod' || m?.[2] === 'deletePod' ? m[2] : undefined;
        if (!how || !actor)
          throw new Diverged('controller', `event ${event}`, event, [
            "an event the HPA machine takes: its actors' answers, its timers (xstate.after.*), CONFIG.UPDATE",
          ]);
        answer(i, how, actor, io);
      }
      const summary = controllerOf(frame, 'incus-hpa');
      ctrl!.compare({ state: frame.state, phase: frame.phase, ...(summary ? { controller: summary } : {}) });
      if (i > 0) counts.machineEvents++;
      monitors.check(i, t, ctrl!.snapshot, world.view(), config());
    } catch (e) {
      if (!(e instanceof Diverged)) throw e;
      divergence = { frame: i, t, event, part: e.part, what: e.what, recorded: e.recorded, allowed: e.allowed };
    }
  }

  function answer(i: number, how: 'done' | 'error', actor: keyof typeof IO_KIND, io: HpaFrameIo | undefined): void {
    const kind = IO_KIND[actor];
    if (io?.kind !== kind)
      throw new InputError(file, `frames[${i}].io`, `expected the ${kind} record of this ${how} event (what the actor answered)`);
    const failed = 'error' in io && io.error !== undefined;
    if (failed !== (how === 'error'))
      throw new InputError(
        file,
        `frames[${i}].io`,
        `expected ${how === 'error' ? 'an error' : 'no error'}: the frame's event is xstate.${how}.actor.${actor}`,
      );
    const { t } = trace.frames[i]!;
    ctrl!.expectChild(actor);
    if (io.kind === 'observe') {
      if (io.error) world.observeFailed(io.error, t);
      else world.observed(io.output!, io.hidden ?? [], t);
      counts.observations++;
      ctrl!.answer(actor, io.error ? { ok: false, error: io.error.message } : { ok: true, output: io.output }, t);
      return;
    }
    if (io.kind === 'delete') {
      const asked = spawned.get(actor)?.input as { name?: string; waitForStop?: boolean } | undefined; // cast: deletePod's input, typed in setup()
      if (asked?.name !== io.input.name || asked?.waitForStop !== io.input.waitForStop) {
        throw new Diverged('controller', 'delete input', JSON.stringify(io.input), [
          `${JSON.stringify({ name: asked?.name, waitForStop: asked?.waitForStop })}: what the machine asked to delete`,
        ]);
      }
    }
    if (io.kind !== 'create' && io.kind !== 'delete') return;
    world.completeAct(io, t);
    counts.acts++;
    const output = io.kind === 'create' ? io.output : undefined;
    ctrl!.answer(actor, io.error ? { ok: false, error: io.error.message } : { ok: true, ...(output ? { output } : {}) }, t);
  }

  const notes = [...world.notes];
  if (world.seedDeletesTranslated > 0) {
    notes.push(
      `${world.seedDeletesTranslated} delete(s) decided with waitForStop: false (the seed's "stop, delete at once") ran as real mode runs them — a forced stop waited for, then the delete (real/hpa-actors.ts removeOwned) — and were held to the model's waited delete; in the simulator the seed's DELETE meets "Instance is running"`,
    );
  }
  const broken = monitors.firstBrokenPromise();
  return {
    file,
    scenario: trace.scenario,
    policy: start.policy,
    frames: trace.frames.length,
    conforms: divergence === undefined,
    promisesKept: broken === undefined || (divergence !== undefined && broken.frame > divergence.frame),
    ...(divergence ? { divergence } : {}),
    replayed: { ...counts, earlyPeriods: ctrl?.earlyPeriods ?? 0 },
    envMoves: world.moves,
    notes,
    properties: monitors.results(),
  };
}
