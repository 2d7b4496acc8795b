// loopscope conform on hand-made real-format traces (hand-run.ts): a conforming run, outside moves
// the model explains, and each kind of divergence — a status the model does not have, an error it
// cannot give, a wrong controller decision, an impossible ordering, a timer cut short — with the
// message pinned; bad input; a policy module; the property monitors.
import { loadPolicyModuleFile } from '../../sim/user-controller/policy-module';
import { describe, expect, it } from 'vitest';
import { IncusError, IncusNotFoundError } from '../../real/incus';
import type { ConformReport } from '../../sim/conform/conform';
import { conform } from '../../sim/conform/conform';
import { loadTracePolicies, parseRealTrace } from '../../sim/conform/load';
import { formatConform } from '../../sim/conform/report';
import { HAND_CONFIG, HandRun, MiB, running } from './hand-run';

const run = (doc: unknown): ConformReport => conform('hand.json', parseRealTrace('hand.json', doc));
/** The divergence block: the report's lines up to the properties. */
const block = (r: ConformReport) => formatConform(r).split('\n  properties')[0] ?? '';

/** fixed, min 2 max 3: nothing → create 2 → wait → both Running → hold. */
function scaleUp(): HandRun {
  return new HandRun()
    .at(100)
    .observe([])
    .timer()
    .at(1_100)
    .created('pod-0000000a')
    .at(2_100)
    .created('pod-0000000b')
    .timer()
    .at(3_200)
    .observe([running('pod-0000000a', 500), running('pod-0000000b', 1_500)])
    .timer();
}

describe('conform: a run the model allows', () => {
  it('replays every frame: same states and decisions, observations and acts from the world model, promises held', () => {
    const r = run(scaleUp().trace());
    expect(r.divergence).toBeUndefined();
    expect({ conforms: r.conforms, promisesKept: r.promisesKept, ...r.replayed }).toEqual({
      conforms: true,
      promisesKept: true,
      machineEvents: 8,
      observations: 2,
      acts: 2,
      configEdits: 0,
      earlyPeriods: 0,
    });
    expect(r.envMoves).toEqual([]);
    expect(r.properties.map((p) => `${p.name}:${p.result}`)).toEqual([
      'never-touches-unowned:held',
      'at-most-max:held',
      'one-operation-at-a-time:held',
      'converges:not-monitored',
      'no-leftovers:not-monitored',
      'scales-to-max:not-monitored',
    ]);
  });

  it('explains a pod deleted and one stopped from outside, and API failures, with the fault vocabulary', () => {
    const trace = scaleUp()
      .timer()
      .at(4_300)
      .failed('observe', new IncusError('GET /1.0/instances: boom (error 500)', { status: 500, serverMessage: 'boom' }))
      .timer()
      .at(5_400)
      .observe([{ ...running('pod-0000000a', 500), status: 'Stopped', memoryUsage: 0, memoryTotal: 0 }])
      .trace();
    const r = run(trace);
    expect(r.divergence).toBeUndefined();
    expect(r.envMoves.map((m) => `${m.t} ${m.move}`)).toEqual([
      '4300 the API failed on observe (failApi): GET /1.0/instances: boom (error 500)',
      '5400 someone deleted pod-0000000b',
      '5400 someone stopped pod-0000000a (kill)',
    ]);
  });

  it('takes a delete of a pod already gone as done (real mode: "not found" is success), and memory as the environment\'s', () => {
    const four = [
      running('pod-0000000a', -9, 60 * MiB),
      running('pod-0000000b', -8),
      running('pod-0000000c', -7),
      running('pod-0000000d', -6),
    ];
    const trace = new HandRun().at(100).observe(four).timer().at(300).deleted().trace();
    expect(trace.frames.find((f) => f.io?.kind === 'delete')?.io).toEqual({
      kind: 'delete',
      input: { name: expect.stringMatching(/^pod-/) as string, waitForStop: true },
    });
    expect(run(trace).conforms).toBe(true);
  });
});

describe('conform: each kind of divergence, reported at its first frame with what the model allowed', () => {
  it('a status the model does not have (Frozen)', () => {
    const t = scaleUp().trace();
    const i = t.frames.findLastIndex((f) => f.io?.kind === 'observe');
    const io = t.frames[i]!.io;
    if (io?.kind !== 'observe' || !io.output) throw new Error('fixture: no observation');
    io.output.instances[1]!.status = 'Frozen';
    const r = run(t);
    expect(r.conforms).toBe(false);
    expect(block(r)).toBe(
      [
        `hand.json: DIVERGES from the model at frame ${i} (t 00:00:03.200, xstate.done.actor.observe)`,
        '  world: pod-0000000b observed Frozen (the model had it Running): no move of the model freezes an instance',
        '  recorded: pod-0000000b Frozen, created at 00:00:01.500',
        '  the model allows instead:',
        '    - Running',
        '    - Stopped — killed or stopped from outside (kill)',
        '    - absent — deleted from outside (deleteInstance)',
        '  before it: 6 machine events replayed alike; the world allowed 1 observations and 2 acts, with 0 outside moves',
      ].join('\n'),
    );
  });

  it('an error the model cannot give: "Instance is running" on a delete that waits for the stop', () => {
    const four = [running('pod-0000000a', -9), running('pod-0000000b', -8), running('pod-0000000c', -7), running('pod-0000000d', -6)];
    const trace = new HandRun()
      .at(100)
      .observe(four)
      .timer()
      .at(300)
      .failed(
        'deletePod',
        new IncusError('DELETE /1.0/instances/pod-0000000d: Instance is running (error 400)', {
          status: 400,
          serverMessage: 'Instance is running',
        }),
      )
      .trace();
    const r = run(trace);
    expect(block(r)).toBe(
      [
        'hand.json: DIVERGES from the model at frame 4 (t 00:00:00.300, xstate.error.actor.deletePod)',
        '  world: delete pod-0000000a (waitForStop: true)',
        '  recorded: error "Instance is running" ("Instance is running")',
        '  the model allows instead:',
        '    - done — stopped (waited for), then deleted',
        '    - error "Incus API unavailable (injected failure)" — an API call fails (the failApi fault)',
        '    - error "Instance not found: pod-0000000a" — someone deleted it first (deleteInstance)',
        '  before it: 3 machine events replayed alike; the world allowed 1 observations and 0 acts, with 0 outside moves',
      ].join('\n'),
    );
  });

  it('an error that is no Incus API failure at all', () => {
    const trace = new HandRun().at(100).failed('observe', new TypeError('cannot read properties of undefined')).trace();
    const r = run(trace);
    expect(r.divergence?.what).toBe('observe failed');
    expect(r.divergence?.recorded).toBe('error "cannot read properties of undefined" (not an Incus API failure)');
  });

  it('a wrong controller decision', () => {
    const t = scaleUp().trace();
    const i = t.frames.findIndex((f) => f.event === 'xstate.done.actor.observe');
    t.frames[i]!.controller.decision!.desired = 3;
    const r = run(t);
    expect(block(r)).toBe(
      [
        `hand.json: DIVERGES from the model at frame ${i} (t 00:00:00.100, xstate.done.actor.observe)`,
        '  controller: controller.decision',
        '  recorded: {"observedAt":100,"averagePercent":null,"running":0,"desired":3,"actions":[{"kind":"create"},{"kind":"create"}]}',
        '  the model allows instead:',
        '    - {"observedAt":100,"averagePercent":null,"running":0,"desired":2,"actions":[{"kind":"create"},{"kind":"create"}]}: what the machine decides on the recorded answers',
        '  before it: 1 machine events replayed alike; the world allowed 1 observations and 0 acts, with 0 outside moves',
      ].join('\n'),
    );
  });

  it('a wrong state', () => {
    const t = scaleUp().trace();
    t.frames.at(-1)!.state = 'backoff';
    expect(run(t).divergence).toMatchObject({
      part: 'controller',
      what: 'state',
      recorded: 'backoff (wait)',
      allowed: ['waiting (wait): the machine fed the recorded answers is there'],
    });
  });

  it('an impossible ordering: a created pod whose created_at is before its create began', () => {
    const trace = new HandRun()
      .at(100)
      .observe([])
      .timer()
      .at(1_100)
      .created('pod-0000000a')
      .at(2_100)
      .created('pod-0000000b')
      .timer()
      .at(3_200)
      .observe([running('pod-0000000a', 40), running('pod-0000000b', 1_500)])
      .trace();
    const r = run(trace);
    expect(block(r).split('\n').slice(1).join('\n')).toBe(
      [
        '  world: pod-0000000a, created by this run, has created_at 00:00:00.040',
        '  recorded: pod-0000000a Running, created at 00:00:00.040, memory 8MiB of 64MiB',
        '  the model allows instead:',
        "    - created_at between the period's first act (00:00:00.100) and the create's answer (00:00:01.100): the model's create makes the instance then",
        '  before it: 6 machine events replayed alike; the world allowed 1 observations and 2 acts, with 0 outside moves',
      ].join('\n'),
    );
  });

  it('an impossible ordering: a pod deleted by the run observed again, the same instance', () => {
    const four = [running('pod-0000000a', -9), running('pod-0000000b', -8), running('pod-0000000c', -7), running('pod-0000000d', -6)];
    const trace = new HandRun().at(100).observe(four).timer().at(300).deleted().timer().at(1_400).observe(four).trace();
    const r = run(trace);
    expect(r.divergence).toMatchObject({
      part: 'world',
      what: 'pod-0000000a appears with created_at -00:00:00.009',
      allowed: [
        "absent, or an instance created after pod-0000000a left the world at 00:00:00.300: the model's instances are listed from their creation on, and a deleted one never returns",
      ],
    });
  });

  it('a stopped pod running again, the same instance: no move of the model starts one', () => {
    const stopped = { ...running('pod-0000000a', 500), status: 'Stopped' as const, memoryUsage: 0, memoryTotal: 0 };
    const trace = scaleUp()
      .timer()
      .at(4_300)
      .observe([stopped, running('pod-0000000b', 1_500)])
      .timer()
      .at(4_400)
      .deleted()
      .at(5_000)
      .created('pod-0000000c')
      .timer()
      .at(6_100)
      .observe([running('pod-0000000a', 500), running('pod-0000000b', 1_500), running('pod-0000000c', 4_500)])
      .trace();
    const r = run(trace);
    // The fixed policy deletes the stopped pod and creates one; the deleted pod then comes back.
    expect(r.divergence?.what).toBe('pod-0000000a appears with created_at 00:00:00.500');
  });

  it('a backoff cut short (only a wait may end early: a wake-up)', () => {
    const t = new HandRun()
      .at(100)
      .failed('observe', new IncusError('x (error 500)', { status: 500, serverMessage: 'x' }))
      .timer()
      .trace();
    const last = t.frames.at(-1)!;
    expect(last.event).toBe('xstate.after.backoff.incus-hpa.backoff');
    last.t = 200;
    expect(run(t).divergence).toMatchObject({ part: 'controller', what: 'xstate.after.backoff.incus-hpa.backoff fired 900 ms early' });
  });

  it('a period ended early is a wake-up, not a divergence', () => {
    const t = scaleUp().trace();
    const period = t.frames.find((f) => f.event.startsWith('xstate.after.period'))!;
    period.t -= 700;
    for (const f of t.frames.filter((g) => g.t > period.t && g.t < 3_100)) f.t = period.t;
    const r = run(t);
    expect(r.divergence).toBeUndefined();
    expect(r.replayed.earlyPeriods).toBe(1);
  });

  it('an answer the machine did not ask for', () => {
    const t = scaleUp().trace();
    const wait = t.frames.findLastIndex((f) => f.event === 'xstate.after.compareTime.incus-hpa.comparing');
    t.frames.splice(wait + 1, 0, {
      ...t.frames[wait]!,
      event: 'xstate.done.actor.createPod',
      io: { kind: 'create', output: { name: 'pod-0000000f' } },
    });
    expect(run(t).divergence).toMatchObject({
      part: 'controller',
      what: 'an answer of createPod',
      allowed: ['no answer: the machine runs no actor in waiting'],
    });
  });
});

describe('conform: bad input', () => {
  const bad = (doc: unknown) => {
    try {
      parseRealTrace('t.json', doc);
      return 'accepted';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };

  it('names the file and the field', () => {
    const sim = scaleUp().trace();
    delete sim.frames[0]!.io;
    expect(bad(sim)).toMatch(/^t\.json: frames\[0\]\.io: expected the start record/);
    expect(bad({ ...scaleUp().trace(), loop: 'cron' })).toMatch(/^t\.json: frames\.0\.world\.clock: /); // the world is read as cron's first
    const t = scaleUp().trace();
    const i = t.frames.findIndex((f) => f.io?.kind === 'observe');
    (t.frames[i]!.io as { output: { instances: unknown[] } }).output.instances = [{ name: 'x' }];
    expect(bad(t)).toBe(
      't.json: frames[2].io.output.instances.0.status: Invalid option: expected one of "Starting"|"Running"|"Stopping"|"Stopped"|"Frozen"|"Error"',
    );
    expect(bad([])).toMatch(/^t\.json: \(top level\): expected a trace object/);
  });

  it('an actor frame without its answer', () => {
    const t = scaleUp().trace();
    delete t.frames.find((f) => f.event === 'xstate.done.actor.createPod')!.io;
    expect(() => run(t)).toThrow('hand.json: frames[4].io: expected the create record of this done event (what the actor answered)');
  });

  it('a policy module that cannot be found says it needs the file', () => {
    const t = scaleUp().trace();
    const start = t.frames[0]!.io;
    if (start?.kind !== 'start') throw new Error('fixture');
    start.config.policy = 'module:no/such-policy.ts';
    expect(() => loadTracePolicies('t.json', parseRealTrace('t.json', t))).toThrow(
      /^t\.json: frames\[0\]\.io\.config\.policy: expected the policy module \/.*no\/such-policy\.ts to be readable: the run's policy is module:no\/such-policy\.ts, and conform replays its decisions with it \(run conform from the directory the run was started in, or pass --policy-module <file>\)$/,
    );
  });
});

describe('conform: properties as monitors', () => {
  it('a policy module replays, and its broken promise (at-most-max) is reported at the frame it breaks', async () => {
    // The run loads its module as real mode does (relative to its config file, here the working directory).
    const { id, policy } = loadPolicyModuleFile('hand.json', 'policy.module', 'examples/hpa-policy/buggy-step-policy.ts');
    const config = { ...HAND_CONFIG, policy: id };
    const hot = [running('pod-0000000a', -9, 60 * MiB), running('pod-0000000b', -8, 60 * MiB)];
    const t = new HandRun(config, new Map([[id, policy]])).at(100).observe(hot).timer().at(1_000).created('pod-0000000c').trace();
    const real = parseRealTrace('hand.json', t);
    const r = conform('hand.json', real, loadTracePolicies('hand.json', real));
    expect(r.conforms).toBe(true);
    expect(r.promisesKept).toBe(false);
    expect(r.properties.find((p) => p.name === 'at-most-max')).toMatchObject({
      result: 'violated',
      promised: true,
      violatedAt: { frame: 4, t: 1_000 },
    });
    expect(formatConform(r)).toContain('VIOLATED       at-most-max (promised) at frame 4 (t 00:00:01)');
  });

  it('not found on create is the model\'s "deleted while it started"', () => {
    const t = new HandRun()
      .at(100)
      .observe([])
      .timer()
      .at(900)
      .failed('createPod', new IncusNotFoundError('Instance not found', { status: 404, serverMessage: 'Instance not found' }))
      .trace();
    const r = run(t);
    expect(r.divergence).toBeUndefined();
    expect(r.envMoves.map((m) => m.move)).toEqual([expect.stringMatching(/^someone deleted pod-[0-9a-f]{8} while it started$/)]);
  });
});
