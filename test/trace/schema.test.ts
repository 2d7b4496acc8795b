// The trace schema (sim/trace-schema.ts): version 1 traces still load, every loop's version 2
// trace round-trips through its JSON, and wrong shapes are refused with the field named.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hpaColumns } from '../../sim/loops/incus-hpa-format';
import { LOOPS, runnerFor } from '../../sim/loops';
import type { Trace } from '../../sim/trace';
import { LOOP_SCHEMAS } from '../../sim/loop-schemas';
import { parseTrace, parseTraceText, traceJson } from '../../sim/trace-schema';
import { incusHpaNumbers } from '../../web/worlds/incus-hpa/summary';

const ROOT = join(import.meta.dirname, '..', '..');
const V1_FIXTURE = join(import.meta.dirname, 'fixtures', 'talk-lab.v1.json');

/** One scenario per loop, run for a while: a version 2 trace with every loop's controller. */
const ONE_PER_LOOP = [
  'talk-lab',
  'systemd-crash-loop',
  'cron-clock-jumps',
  'puppet-failed-dependency',
  'terraform-drift',
  'kubernetes-replicaset',
];
function traceOf(name: string, untilMs = 10 * 60_000): Trace {
  const { runner } = runnerFor(join(ROOT, 'scenarios', `${name}.yaml`));
  runner.run(untilMs);
  return runner.trace();
}

const errorOf = (doc: unknown) => {
  const r = parseTrace(doc);
  return r.ok ? 'accepted' : r.error;
};

describe('version 1 traces (no version, no controller)', () => {
  const text = readFileSync(V1_FIXTURE, 'utf8');
  const raw = JSON.parse(text) as Trace;

  it('the fixture is a version 1 trace, as loopscope wrote it before controller summaries', () => {
    expect(raw.version).toBeUndefined();
    expect(raw.frames.every((f) => !('controller' in f))).toBe(true);
  });

  it('loads, upgraded to version 2 with its frames unchanged and no controller', () => {
    const r = parseTraceText(text);
    if (!r.ok) throw new Error(r.error);
    expect(r.trace.version).toBe(2);
    expect(r.trace.frames).toEqual(raw.frames);
    expect(r.trace.frames.every((f) => f.controller === undefined)).toBe(true);
  });

  it("the lab shows what the world says (running pods) and leaves the controller's numbers unknown", () => {
    const r = parseTraceText(text);
    if (!r.ok) throw new Error(r.error);
    if (r.trace.loop !== 'incus-hpa') throw new Error(`expected an incus-hpa trace, got ${r.trace.loop}`);
    const last = r.trace.frames.at(-1)!;
    expect(incusHpaNumbers(last)).toEqual({ running: 3, avg: null, threshold: null });
    expect(hpaColumns(last)).toMatch(/^pods +- +mem +-%$/);
  });
});

describe('version 2 traces', () => {
  it('every registered loop has a controller summary function and a schema for it', () => {
    expect(Object.keys(LOOP_SCHEMAS).sort()).toEqual(Object.keys(LOOPS).sort());
    for (const [loop, entry] of Object.entries(LOOPS)) expect(typeof entry.binding.controller, loop).toBe('function');
  });

  for (const name of ONE_PER_LOOP) {
    it(`${name}: every frame has a controller, and the JSON loads back to the same trace`, () => {
      const trace = traceOf(name);
      expect(trace.version).toBe(2);
      expect(trace.frames.every((f) => f.controller?.loop === trace.loop)).toBe(true);
      const r = parseTraceText(traceJson(trace));
      if (!r.ok) throw new Error(r.error);
      expect(r.trace).toEqual(JSON.parse(JSON.stringify(trace)));
    });
  }
});

describe('wrong traces are refused with the field named', () => {
  const good = () =>
    JSON.parse(traceJson(traceOf('talk-lab', 2 * 60_000))) as Record<string, unknown> & { frames: Record<string, unknown>[] };
  const withFrame = (i: number, patch: Record<string, unknown>) => {
    const t = good();
    t.frames[i] = { ...t.frames[i], ...patch };
    return t;
  };

  it('an unknown loop, a wrong version, a missing scenario', () => {
    expect(errorOf({ ...good(), loop: 'nomad' })).toMatch(
      /^loop: expected one of cron, puppet, systemd-restart, terraform, kubernetes, incus-hpa$/,
    );
    expect(errorOf({ ...good(), version: 3 })).toMatch(/^version: expected 2 \(or no version: a version 1 trace\)$/);
    const { scenario: _s, ...noScenario } = good();
    expect(errorOf(noScenario)).toMatch(/^scenario: expected the scenario name$/);
    expect(errorOf([1, 2])).toMatch(/^\(top level\): expected a trace object/);
  });

  it('a frame without a world, with a bad phase, or (version 2) without a controller', () => {
    const t = good();
    delete t.frames[2]!.world;
    expect(errorOf(t)).toMatch(/^frames\.2\.world: expected an object \(the loop's world summary\)$/);
    expect(errorOf(withFrame(1, { phase: 'dance' }))).toMatch(/^frames\.1\.phase: expected one of observe, compare, act, wait, error$/);
    const noController = good();
    delete noController.frames[3]!.controller;
    expect(errorOf(noController)).toMatch(/^frames\.3\.controller: expected the controller summary/);
    // The same frames without a version are a version 1 trace: controllers may be absent.
    const { version: _v, ...v1 } = noController;
    expect(errorOf(v1)).toBe('accepted');
  });

  it('a controller of the wrong shape or of another loop', () => {
    const t = good();
    const c = t.frames[4]!.controller as Record<string, unknown>;
    expect(errorOf(withFrame(4, { controller: { ...c, averagePercent: 'high' } }))).toMatch(/^frames\.4\.controller\.averagePercent: /);
    expect(errorOf(withFrame(4, { controller: { ...c, pods: { running: -1, starting: 0, stopping: 0 } } }))).toMatch(
      /^frames\.4\.controller\.pods\.running: /,
    );
    const systemd = traceOf('systemd-crash-loop', 5_000).frames[0]!.controller;
    expect(errorOf(withFrame(0, { controller: systemd }))).toMatch(/^frames\.0\.controller\.loop: /);
  });

  it("each loop's frames are read through that loop's own schemas (LOOP_SCHEMAS[loop]), not another's", () => {
    // An HPA trace relabelled as each other loop: its frames' worlds and controllers are the wrong loop's.
    for (const loop of Object.keys(LOOP_SCHEMAS).filter((l) => l !== 'incus-hpa')) {
      expect(errorOf({ ...good(), loop }), loop).toMatch(/^frames\.0\.(world|controller)/);
      const { version: _v, ...v1 } = good();
      const worldsOnly = { ...v1, loop, frames: v1.frames.map(({ controller: _c, ...f }) => f) };
      expect(errorOf(worldsOnly), `${loop}, worlds only`).toMatch(/^frames\.0\.world\./);
    }
  });

  it('malformed JSON', () => {
    expect(parseTraceText('{"loop":')).toMatchObject({ ok: false, error: expect.stringMatching(/^malformed JSON: /) });
  });
});
