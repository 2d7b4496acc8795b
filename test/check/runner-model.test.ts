import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HpaConfig } from '../../machines/incus-hpa';
import { neverTouchesUnowned, atMostMax, countSettled } from '../../sim/properties/incus-hpa';
import { viewOf } from '../../sim/check/counterexample';
import { hpaBinding } from '../../sim/loops/incus-hpa';
import { Runner } from '../../sim/runner';
import type { Frame } from '../../sim/trace';
import type { HpaFault, HpaWorld } from '../../sim/worlds/incus-hpa';
import type { HpaCase } from './hpa-arbitraries';
import { hpaCaseArb, NUM_RUNS, worldOf } from './hpa-arbitraries';

type Real = Runner<HpaWorld, HpaFault, HpaConfig>;
/** The model: the config the runner must hold, and the frames it showed at each command. */
interface Model {
  config: HpaConfig;
  history: { t: number; frames: Frame[] }[];
}

const record = (m: Model, r: Real) => m.history.push({ t: r.t, frames: r.frames.map((f) => ({ ...f })) });

class StepCommand implements fc.Command<Model, Real> {
  check = () => true;
  run(m: Model, r: Real) {
    const before = r.phase;
    const t = r.t;
    r.step();
    expect(r.t).toBeGreaterThanOrEqual(t);
    if (r.nextEventAt !== undefined) expect(r.phase).not.toBe(before); // step stops at a phase boundary
    record(m, r);
  }
  toString = () => 'step';
}
class StepBackCommand implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>) => m.history.length > 1;
  run(m: Model, r: Real) {
    const before = r.frames.length;
    r.stepBack();
    // Rewinding keeps a prefix of what was shown, never invents frames.
    expect(r.frames.length).toBeLessThanOrEqual(before);
    expect(r.frames).toEqual(m.history.at(-1)!.frames.slice(0, r.frames.length));
    record(m, r);
  }
  toString = () => 'stepBack';
}
class InjectCommand implements fc.Command<Model, Real> {
  constructor(readonly fault: HpaFault) {}
  check = () => true;
  run(m: Model, r: Real) {
    const frames = r.frames.length;
    r.inject(this.fault);
    expect(r.frames.length).toBe(frames + 1);
    expect(r.frames.at(-1)!.event).toBe('world.inject');
    record(m, r);
  }
  toString = () => `inject ${JSON.stringify(this.fault)}`;
}
class UpdateCommand implements fc.Command<Model, Real> {
  constructor(
    readonly minPods: number,
    readonly extra: number,
  ) {}
  check = () => true;
  run(m: Model, r: Real) {
    const change = { minPods: this.minPods, maxPods: this.minPods + this.extra };
    m.config = { ...m.config, ...change };
    r.update(change);
    expect(r.config).toEqual(m.config);
    expect((r.snapshot.context as { config: HpaConfig }).config).toMatchObject(change);
    record(m, r);
  }
  toString = () => `update min ${this.minPods} max ${this.minPods + this.extra}`;
}

const commands = [
  fc.constant(new StepCommand()),
  fc.constant(new StepBackCommand()),
  fc.oneof(
    fc.integer({ min: 0, max: 3000 }).map((mb) => new InjectCommand({ kind: 'demand', bytes: mb * 1e6 })),
    fc.integer({ min: 1, max: 3 }).map((calls) => new InjectCommand({ kind: 'failApi', calls })),
  ),
  fc
    .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }))
    .map(([a, b]) => new UpdateCommand(a, Math.max(b, a === 0 ? 1 : 0))),
];

describe('the Runner API against a model (fc.commands)', () => {
  it("step / stepBack / inject / update keep the model's config and a consistent frame history", () => {
    fc.assert(
      fc.property(hpaCaseArb(['fixed', 'kubernetes', 'seed']), fc.commands(commands, { maxCommands: 30 }), (c: HpaCase, cmds) => {
        const runner = new Runner(hpaBinding, { scenario: 'model', seed: c.seed, world: worldOf(c), config: c.config, checkpoints: true });
        const model: Model = { config: c.config, history: [] };
        record(model, runner);
        fc.modelRun(() => ({ model, real: runner }), cmds);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('a race between the controller and the world (fc.scheduler)', () => {
  // The scheduler orders the controller's next steps against someone deleting an owned pod and
  // the load changing: a write by the world before or after the controller's observation.
  it('fixed: whatever the interleaving, it touches nothing unowned, never creates past max, and settles', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), hpaCaseArb(['fixed']), async (s, c) => {
        const runner = new Runner(hpaBinding, { scenario: 'race', seed: c.seed, world: worldOf(c), config: c.config });
        const violations: string[] = [];
        const checkNow = () => {
          for (const p of [neverTouchesUnowned, atMostMax]) if (!p.holds(viewOf(runner))) violations.push(p.name);
        };
        const controller = async () => {
          for (let i = 0; i < 12; i++) {
            await s.schedule(Promise.resolve(`controller step ${i}`));
            runner.processNext();
            checkNow();
          }
        };
        const world = async () => {
          await s.schedule(Promise.resolve('someone deletes an owned pod'));
          const owned = runner.world.instances.filter((i) => i.owner === c.config.name);
          if (owned[0]) runner.inject({ kind: 'deleteInstance', instance: owned[0].name });
          checkNow();
          await s.schedule(Promise.resolve('load doubles'));
          runner.inject({ kind: 'demand', bytes: runner.world.demandBytes * 2 + 1e8 });
          checkNow();
        };
        const done = Promise.all([controller(), world()]);
        await s.waitFor(done);
        await done;
        // Quiet afterwards: within the convergence bound the count settles.
        runner.run(runner.t + 12 * c.config.periodMs + 6 * 6_000 + c.config.backoffMaxMs);
        expect(violations).toEqual([]);
        expect(countSettled(viewOf(runner))).toBe(true);
      }),
      { numRuns: Math.max(50, NUM_RUNS / 4) },
    );
  });
});
