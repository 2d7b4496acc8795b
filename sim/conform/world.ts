// The world side of `loopscope conform`: a simulated Incus world (sim/worlds/incus-hpa.ts) carried
// along a real run. Every act goes through the model's own begin/complete; where the real answer
// differs from the model's default, the environment moves of the simulator's fault vocabulary
// (failApi, deleteInstance, addInstance, kill, stress) are tried — through the model's `inject` —
// and the first that makes the model answer the same is kept. Every observation is then the
// model's own `observe()` of that world, compared field by field. What no move explains diverges.
import type { HpaConfig, Observation, ObservedInstance } from '../../machines/incus-hpa';
import type { OpResult } from '../model';
import type { HpaFault, HpaWorld } from '../worlds/incus-hpa';
import { createHpaWorld, hpaWorldModel, observe, settle } from '../worlds/incus-hpa';
import type { HpaFrameIo, IoError } from '../trace-io';
import { formatBytes, formatDuration } from '../units';
import { Diverged } from './diverged';
import { CLASS_WORDS, modelErrorClass, realErrorClass } from './outcomes';

/** Clock slack between a frame's time, Incus' created_at and an observation's `at` (ms, one host). */
const CLOCK_SLACK_MS = 50;

export interface EnvMoveUsed {
  t: number;
  move: string;
}

type ActSrc = 'createPod' | 'deletePod';
interface InFlight {
  src: ActSrc;
  input: { name?: string; waitForStop?: boolean };
  at: number;
  before: HpaWorld;
  mid: HpaWorld;
}
interface Candidate {
  label: string;
  world: HpaWorld;
  result: OpResult;
  move?: string;
}

const API_DOWN_WORDS = 'an API call fails (the failApi fault)';
const at = (t: number) => formatDuration(t);
const describe = (i: ObservedInstance) =>
  `${i.name} ${i.status}, created at ${at(i.createdAt)}${i.status === 'Running' ? `, memory ${formatBytes(i.memoryUsage)} of ${formatBytes(i.memoryTotal)}` : ''}`;
const resultWords = (r: OpResult) => (r.ok ? 'done' : `error "${r.error}"`);
const realWords = (e: IoError | undefined) => (e ? `error "${e.server ?? e.message}" (${CLASS_WORDS[realErrorClass(e)]})` : 'done');

export class WorldReplay {
  private world: HpaWorld;
  readonly moves: EnvMoveUsed[] = [];
  readonly notes: string[] = [];
  private inflight: InFlight | undefined;
  private observeBegan = 0;
  /** When the last successful observe began: an instance it did not list was created after it. */
  private lastListedFrom: number | undefined;
  /** The first act since the last observation (a slow-started batch runs its creates from there). */
  private actsFrom: number | undefined;
  /** Names that left the world, and when: a later instance of that name is a new one. */
  private readonly gone = new Map<string, number>();
  /** Our creates not observed yet: Incus stamps created_at while the create runs. */
  private readonly created = new Map<string, { from: number; until: number }>();
  private observations = 0;
  private translatedSeedDeletes = 0;
  private hostKnown = false;

  constructor(private readonly config: () => HpaConfig) {
    // Latencies are the environment's (slowApi), baseline and demand are left out: each running
    // instance's memory is its own `stress`, so any usage up to its total is reachable.
    this.world = createHpaWorld(
      0,
      {
        hostMemoryBytes: 16 * 1024 ** 3,
        baselineBytes: 0,
        latency: { list: 0, create: 0, start: 0, stop: 0, delete: 0 },
        failureProbability: 0,
      },
      [],
      0,
    );
  }

  /** The world a property looks at now (mid-act: with the act begun). */
  view(): HpaWorld {
    return this.inflight?.mid ?? this.world;
  }

  get seedDeletesTranslated(): number {
    return this.translatedSeedDeletes;
  }

  beginObserve(t: number): void {
    this.observeBegan = t;
  }

  beginAct(src: ActSrc, input: InFlight['input'], t: number): void {
    const before = settle(this.world, t);
    this.actsFrom ??= t;
    const mid = hpaWorldModel.begin(before, src, this.modelInput(src, input), t).world;
    this.inflight = { src, input, at: t, before, mid };
  }

  /** The machine's delete input as the real adapter runs it (see the note on translation). */
  private modelInput(src: ActSrc, input: InFlight['input']) {
    const config = this.config();
    if (src === 'createPod') return { config };
    // real/hpa-actors.ts removeOwned: the seed's "stop, delete at once" (waitForStop false) cannot
    // work on Incus, so real mode forces the stop, waits for it, then deletes — the model's waited delete.
    return { config, name: input.name ?? '', waitForStop: true };
  }

  observeFailed(error: IoError, t: number): void {
    const cls = realErrorClass(error);
    if (cls === 'api') {
      this.moves.push({ t, move: `the API failed on observe (failApi): ${error.message}` });
      return;
    }
    throw new Diverged('world', 'observe failed', realWords(error), [
      "the owned instances (the model's observe answers)",
      `error "Incus API unavailable (injected failure)" — ${API_DOWN_WORDS}`,
    ]);
  }

  completeAct(io: Extract<HpaFrameIo, { kind: 'create' | 'delete' }>, t: number): void {
    const f = this.inflight;
    this.inflight = undefined;
    if (!f)
      throw new Diverged('world', `${io.kind} answered with no act in flight`, io.kind, ['an answer only to an act the machine began']);
    if (io.notDone !== undefined) {
      this.notes.push(`${at(t)}: ${io.notDone} (not done: the world was not asked)`);
      return;
    }
    const what = f.src === 'createPod' ? 'create' : `delete ${f.input.name} (waitForStop: ${String(f.input.waitForStop)})`;
    const candidates = f.src === 'createPod' ? this.createCandidates(f, io, t) : this.deleteCandidates(f, t);
    if (io.error && realErrorClass(io.error) === 'guard') {
      this.notes.push(`${at(t)}: ${what} refused by real mode before the world was asked: ${io.error.message}`);
      this.world = f.before;
      return;
    }
    const match = candidates.find((c) => this.matches(f.src, io.error, c.result));
    if (!match) {
      throw new Diverged(
        'world',
        what,
        realWords(io.error),
        candidates.map((c) => `${resultWords(c.result)} — ${c.label}`),
      );
    }
    if (f.src === 'deletePod' && f.input.waitForStop === false) this.translatedSeedDeletes++;
    if (match.move) this.moves.push({ t, move: match.move });
    this.world = match.world;
    if (f.src === 'createPod' && io.kind === 'create' && io.output) {
      this.created.set(io.output.name, { from: this.actsFrom ?? f.at, until: t });
      this.gone.delete(io.output.name);
    }
    if (f.src === 'deletePod' && match.result.ok && f.input.name) this.gone.set(f.input.name, t);
  }

  /** Real mode's answer against the model's: "not found" on delete counts as done (real/hpa-actors.ts removeOwned). */
  private matches(src: ActSrc, real: IoError | undefined, model: OpResult): boolean {
    if (!real) return model.ok || (src === 'deletePod' && modelErrorClass(model.error) === 'not-found');
    return !model.ok && modelErrorClass(model.error) === realErrorClass(real);
  }

  private createCandidates(f: InFlight, io: Extract<HpaFrameIo, { kind: 'create' | 'delete' }>, t: number): Candidate[] {
    const config = this.config();
    const name = io.kind === 'create' ? io.output?.name : undefined;
    if (name !== undefined) {
      // The model names a pod <prefix><8 hex digits> (a random draw: which digits is the environment's).
      const shape = new RegExp(`^${config.namePrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[0-9a-f]{8}$`);
      if (!shape.test(name))
        throw new Diverged('world', `create answered the name ${name}`, name, [
          `a name ${config.namePrefix}<8 hex digits>: the model names every pod it creates so`,
        ]);
      if (f.before.instances.some((i) => i.name === name)) {
        throw new Diverged('world', `create answered ${name}, an instance the world already had`, `created ${name}`, [
          'a new name: Incus refuses to create a second instance of a name ("already exists")',
        ]);
      }
    }
    const begun = (w: HpaWorld) => {
      const b = hpaWorldModel.begin(w, 'createPod', { config }, f.at);
      return name === undefined ? b : { ...b, world: renameCreated(b.world, b.opId, name) };
    };
    const asDecided = begun(f.before);
    const drawn = asDecided.world.ops.find((o) => o.id === asDecided.opId);
    const podName = drawn && 'name' in drawn ? drawn.name : 'the new pod';
    const failed = begun(inject(f.before, { kind: 'failApi', calls: 1 }, f.at));
    const deletedWhileStarting = inject(asDecided.world, { kind: 'deleteInstance', instance: podName }, t);
    return [
      { label: 'created and started', ...completed(asDecided.world, asDecided.opId, t) },
      { label: API_DOWN_WORDS, move: 'the API failed on create (failApi)', ...completed(failed.world, failed.opId, t) },
      {
        label: 'someone deleted the pod while it started (deleteInstance)',
        move: `someone deleted ${podName} while it started`,
        ...completed(deletedWhileStarting, asDecided.opId, t),
      },
    ];
  }

  private deleteCandidates(f: InFlight, t: number): Candidate[] {
    const name = f.input.name ?? '';
    const input = this.modelInput('deletePod', f.input);
    const run = (w: HpaWorld) => {
      const b = hpaWorldModel.begin(w, 'deletePod', input, f.at);
      return completed(b.world, b.opId, t);
    };
    const target = f.before.instances.find((i) => i.name === name);
    const present = target !== undefined;
    const asDecided = !target
      ? 'it is not in the world'
      : target.status === 'Stopped' || target.status === 'Error'
        ? `deleted (it is ${target.status})`
        : 'stopped (waited for), then deleted';
    const out: Candidate[] = [
      { label: asDecided, ...run(f.before) },
      {
        label: API_DOWN_WORDS,
        move: `the API failed on delete ${name} (failApi)`,
        ...run(inject(f.before, { kind: 'failApi', calls: 1 }, f.at)),
      },
    ];
    if (present)
      out.push({
        label: 'someone deleted it first (deleteInstance)',
        move: `someone deleted ${name} before our delete`,
        ...run(inject(f.before, { kind: 'deleteInstance', instance: name }, f.at)),
      });
    return out;
  }

  /** An observation: the model's own observe() of the world, after the moves that explain it. */
  observed(obs: Observation, hidden: readonly string[], t: number): void {
    const config = this.config();
    const first = this.observations++ === 0;
    if (obs.at < this.observeBegan - CLOCK_SLACK_MS || obs.at > t + CLOCK_SLACK_MS) {
      throw new Diverged('world', `observation taken at ${at(obs.at)}`, `at ${at(obs.at)}`, [
        `a time while the observe ran (${at(this.observeBegan)} to ${at(t)})`,
      ]);
    }
    let w = settle(this.world, t);
    // Without limits.memory a pod's total is the host's memory: a parameter of the model, read here.
    const hostTotal = obs.instances.find((i) => i.status === 'Running' && i.memoryTotal > 0 && config.limitsMemoryBytes === 0)?.memoryTotal;
    if (hostTotal !== undefined && !this.hostKnown) {
      w = { ...w, params: { ...w.params, hostMemoryBytes: hostTotal } };
      this.hostKnown = true;
    }
    const move = (fault: HpaFault, words: string) => {
      w = inject(w, fault, t);
      if (!first) this.moves.push({ t, move: words });
    };
    const listed = new Map(obs.instances.map((i) => [i.name, i]));
    const hiddenNow = new Set(hidden);
    for (const o of obs.instances) {
      if (o.owner !== config.name)
        throw new Diverged('world', `observe listed ${o.name}, owned by ${o.owner === null ? 'nobody' : `"${o.owner}"`}`, describe(o), [
          `only instances with user.loopscope.hpa=${config.name}: real mode observes this HPA's own`,
        ]);
    }
    for (const m of w.instances) {
      if (listed.has(m.name) || hiddenNow.has(m.name)) continue;
      move({ kind: 'deleteInstance', instance: m.name }, `someone deleted ${m.name}`);
      this.gone.set(m.name, t);
      this.created.delete(m.name);
    }
    for (const o of obs.instances) {
      let m = w.instances.find((i) => i.name === o.name);
      const ours = this.created.get(o.name);
      if (m && ours) {
        this.created.delete(o.name);
        if (o.createdAt < ours.from - CLOCK_SLACK_MS || o.createdAt > ours.until + CLOCK_SLACK_MS) {
          throw new Diverged('world', `${o.name}, created by this run, has created_at ${at(o.createdAt)}`, describe(o), [
            `created_at between the period's first act (${at(ours.from)}) and the create's answer (${at(ours.until)}): the model's create makes the instance then`,
          ]);
        }
        w = withCreatedAt(w, o.name, o.createdAt);
        m = w.instances.find((i) => i.name === o.name);
      } else if (m && m.createdAt !== o.createdAt) {
        // Another created_at: another instance under the same name (the old one deleted, a new one added).
        move({ kind: 'deleteInstance', instance: o.name }, `someone deleted ${o.name}`);
        this.gone.set(o.name, t);
        m = undefined;
      }
      if (!m) {
        const since = Math.max(first ? -Infinity : (this.lastListedFrom ?? -Infinity), this.gone.get(o.name) ?? -Infinity);
        if (o.createdAt < since - CLOCK_SLACK_MS) {
          const why =
            this.gone.has(o.name) && this.gone.get(o.name)! >= (this.lastListedFrom ?? -Infinity)
              ? `after ${o.name} left the world at ${at(this.gone.get(o.name)!)}`
              : `after the previous observe began (${at(since)}), which did not list it`;
          throw new Diverged('world', `${o.name} appears with created_at ${at(o.createdAt)}`, describe(o), [
            `absent, or an instance created ${why}: the model's instances are listed from their creation on, and a deleted one never returns`,
          ]);
        }
        if (o.status !== 'Running' && o.status !== 'Stopped') throw statusDivergence(o, undefined);
        move(
          {
            kind: 'addInstance',
            name: o.name,
            owner: config.name,
            limitBytes: o.status === 'Running' ? o.memoryTotal : config.limitsMemoryBytes,
            stressBytes: 0,
            serves: false,
          },
          `someone created ${o.name}`,
        );
        w = withCreatedAt(w, o.name, o.createdAt);
        if (o.status === 'Stopped') move({ kind: 'kill', instance: o.name }, `someone stopped ${o.name}`);
        continue;
      }
      if (m.status !== o.status) {
        if (o.status !== 'Stopped') throw statusDivergence(o, m.status);
        move({ kind: 'kill', instance: o.name }, `someone stopped ${o.name} (kill)`);
      }
    }
    // Memory in use is the environment's (a stress per instance); the total is the model's.
    for (const o of obs.instances) {
      const m = w.instances.find((i) => i.name === o.name);
      if (o.status === 'Running' && m && m.stressBytes !== o.memoryUsage)
        w = inject(w, { kind: 'stress', instance: o.name, bytes: o.memoryUsage }, t);
    }
    this.verify(w, obs, hiddenNow);
    this.world = w;
    this.lastListedFrom = this.observeBegan;
    this.actsFrom = undefined;
  }

  /** The recorded observation must be exactly what the model's observe() gives (order included: Incus lists by name). */
  private verify(w: HpaWorld, obs: Observation, hidden: ReadonlySet<string>): void {
    const model = observe(settle(w, obs.at), obs.at).instances.filter((i) => !hidden.has(i.name));
    const fields = ['name', 'status', 'owner', 'createdAt', 'memoryUsage', 'memoryTotal'] as const;
    for (let i = 0; i < Math.max(model.length, obs.instances.length); i++) {
      const r = obs.instances[i];
      const m = model[i];
      const field = !r || !m ? 'name' : fields.find((k) => r[k] !== m[k]);
      if (field === undefined) continue;
      const recorded = r ? describe(r) : '(nothing)';
      const allowed = m ? describe(m) : '(nothing)';
      const why =
        field === 'memoryTotal'
          ? " (the model: limits.memory of the pod, or the host's memory without a limit)"
          : field === 'memoryUsage'
            ? ' (the model caps usage at the total)'
            : field === 'name'
              ? ' (Incus lists instances ordered by name)'
              : '';
      throw new Diverged('world', `observation, instance #${i + 1}: ${field} differs from the model's observe${why}`, recorded, [allowed]);
    }
  }
}

const inject = (w: HpaWorld, fault: HpaFault, t: number) => hpaWorldModel.inject(w, fault, t).world;
const completed = (w: HpaWorld, opId: number, t: number) => hpaWorldModel.complete(w, opId, t);

function statusDivergence(o: ObservedInstance, modelStatus: string | undefined): Diverged {
  const why: Record<string, string> = {
    Starting: 'the model has an instance Starting only while our own create runs, and none runs during an observe',
    Stopping: 'the model has an instance Stopping only during a delete not waited for, which real mode never sends',
    Frozen: 'no move of the model freezes an instance',
    Error: 'no move of the model puts an instance in Error',
    Running: 'no move of the model starts a stopped instance (only our create starts one, as a new instance)',
  };
  const allowed =
    modelStatus === undefined
      ? ['absent', 'Running — someone created it (addInstance)', 'Stopped — someone created and stopped it (addInstance, kill)']
      : [...new Set([modelStatus, 'Stopped — killed or stopped from outside (kill)'])].concat(
          'absent — deleted from outside (deleteInstance)',
        );
  return new Diverged(
    'world',
    `${o.name} observed ${o.status}${modelStatus ? ` (the model had it ${modelStatus})` : ''}: ${why[o.status] ?? 'a status the model does not have'}`,
    describe(o),
    allowed,
  );
}

/** The model draws a pod's hex from its generator; the real run's name is the environment's draw. */
function renameCreated(w: HpaWorld, opId: number, name: string): HpaWorld {
  const op = w.ops.find((o) => o.id === opId);
  if (!op || op.kind !== 'create' || op.name === '') return w;
  const from = op.name;
  return {
    ...w,
    ops: w.ops.map((o) => (o.id === opId ? { ...o, name } : o)),
    instances: w.instances
      .map((i) => (i.name === from ? { ...i, name } : i))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

/** When an environment move happened: Incus' created_at (the move is applied at the observation). */
const withCreatedAt = (w: HpaWorld, name: string, createdAt: number): HpaWorld => ({
  ...w,
  instances: w.instances.map((i) => (i.name === name ? { ...i, createdAt } : i)),
});
