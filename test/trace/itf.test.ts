// ITF (Apalache's ADR-015 "Informal Trace Format") export and import (sim/itf/): values encode
// without a JSON fraction and decode exactly; sim traces of every loop validate against the schema
// written from the ADR and come back frame for frame; an ITF file loopscope did not write, or
// broke, is refused with the path named; the lab's loaders open ITF files.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLabFiles } from '../../cli/lab/files';
import { itfJson, traceToItf } from '../../sim/itf/export';
import { itfToTrace } from '../../sim/itf/import';
import { parseAnyTraceText } from '../../sim/itf/read';
import { decimalOf, decodeValue, encodeValue } from '../../sim/itf/values';
import { runnerFor } from '../../sim/loops';
import type { Trace } from '../../sim/trace';
import { parseTraceText, traceJson } from '../../sim/trace-schema';
import { traceStateProblem } from '../../web/lab/trace-check';
import { propertyRuns } from '../property-runs';
import { expectValidItf, itfExprProblem, itfSchemaProblem, jsonNumbers } from './itf-schema';

const ROOT = join(import.meta.dirname, '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'loopscope-itf-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

function simTrace(name: string, untilMs = 10 * 60_000): Trace {
  const { runner } = runnerFor(join(ROOT, 'scenarios', `${name}.yaml`));
  runner.run(untilMs);
  return runner.trace();
}

/** What the trace file holds (JSON drops undefined fields), as the lab would load it. */
const asLoaded = (trace: Trace) => {
  const r = parseTraceText(traceJson(trace));
  if (!r.ok) throw new Error(r.error);
  return r.trace;
};

/** trace → ITF file text → trace, through the loader's parse function. */
function roundTrip(trace: Trace): { text: string; back: Trace } {
  const text = itfJson(traceToItf(trace));
  const r = parseAnyTraceText(text);
  if (!r.ok) throw new Error(r.error);
  return { text, back: r.trace };
}

const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('ITF values (ADR-015): integers as #bigint, no JSON number, exact decimals', () => {
  it('writes every integer as { "#bigint": "…" }, large ones included', () => {
    expect(encodeValue(0)).toEqual({ '#bigint': '0' });
    expect(encodeValue(-5)).toEqual({ '#bigint': '-5' });
    expect(encodeValue(2 ** 53 + 2)).toEqual({ '#bigint': '9007199254740994' });
    expect(encodeValue(1e21)).toEqual({ '#bigint': '1000000000000000000000' });
    expect(decodeValue({ '#bigint': '1000000000000000000000' })).toBe(1e21);
  });

  it('writes a non-integer as ["decimal", m, e] = m × 10^e from its shortest decimal form, and reads it back bit for bit', () => {
    expect(encodeValue(143783.157)).toEqual({ '#tup': ['decimal', { '#bigint': '143783157' }, { '#bigint': '-3' }] });
    expect(decimalOf(-0.5)).toEqual([-5n, -1n]);
    expect(decimalOf(1.5e-7)).toEqual([15n, -8n]);
    for (const x of [0.1, 0.1 + 0.2, -0.5, 1.5e-7, 5e-324, 2 ** 52 + 0.5, Math.PI, 143783.157]) expect(decodeValue(encodeValue(x))).toBe(x);
  });

  it('writes null as ["null"], a key starting with "#" as a #map, and drops undefined fields as JSON does', () => {
    expect(encodeValue({ a: null, b: undefined, c: [1, 'x', true] })).toEqual({
      a: { '#tup': ['null'] },
      c: [{ '#bigint': '1' }, 'x', true],
    });
    expect(encodeValue({ '#meta': 1, b: 2 })).toEqual({
      '#map': [
        ['#meta', { '#bigint': '1' }],
        ['b', { '#bigint': '2' }],
      ],
    });
    expect(
      decodeValue({
        '#map': [
          ['#meta', { '#bigint': '1' }],
          ['b', { '#bigint': '2' }],
        ],
      }),
    ).toEqual({ '#meta': 1, b: 2 });
  });

  it('reads what other ITF writers may give (integers as JSON numbers before the 2023 revision, sets as lists), refuses what it cannot hold', () => {
    expect(decodeValue({ x: 3, s: { '#set': ['a'] } })).toEqual({ x: 3, s: ['a'] });
    expect(() => decodeValue({ x: 0.5 }, 'states.0.world')).toThrow(/^states\.0\.world\.x: .*ITF has no fractions/);
    expect(() => decodeValue({ '#tup': [{ '#bigint': '1' }] }, 'w')).toThrow(/^w: expected a tuple loopscope writes/);
    expect(() => decodeValue({ '#unserializable': 'Int' }, 'w')).toThrow(/^w: expected a value loopscope can read/);
    expect(() => decodeValue({ '#bigint': '1.5' }, 'w')).toThrow(/^w: expected \{ "#bigint"/);
    expect(() => decodeValue({ '#bogus': [] }, 'w')).toThrow(/^w: expected one of the ITF forms/);
    expect(() => decodeValue({ a: 1, '#tup': [] }, 'w')).toThrow(/^w\.#tup: expected a record field/);
  });

  it('any JSON value: encodes to a valid ITF expression with no JSON number, and decodes to the same JSON (fresh seed)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const encoded = encodeValue(value);
        expect(itfExprProblem(encoded)).toBeNull();
        expect(jsonNumbers(encoded)).toEqual([]);
        expect(json(decodeValue(json(encoded)))).toEqual(json(value));
      }),
      { numRuns: propertyRuns() },
    );
  });
});

describe('the schema written from ADR-015 itself', () => {
  it("accepts the ADR's own example (its first states) and refuses what the ADR rules out", () => {
    // Two states of the MissionariesAndCannibals counterexample the ADR gives as its example.
    const adrExample = {
      '#meta': { source: 'MC_MissionariesAndCannibalsTyped.tla', varTypes: { bank_of_boat: 'Str', who_is_on_bank: 'Str -> Set(PERSON)' } },
      vars: ['bank_of_boat', 'who_is_on_bank'],
      states: [
        {
          '#meta': { index: 0 },
          bank_of_boat: 'E',
          who_is_on_bank: {
            '#map': [
              ['E', { '#set': ['c1_OF_PERSON', 'c2_OF_PERSON', 'm1_OF_PERSON', 'm2_OF_PERSON'] }],
              ['W', { '#set': [] }],
            ],
          },
        },
        {
          '#meta': { index: 1 },
          bank_of_boat: 'W',
          who_is_on_bank: {
            '#map': [
              ['E', { '#set': ['c1_OF_PERSON', 'm1_OF_PERSON'] }],
              ['W', { '#set': ['c2_OF_PERSON', 'm2_OF_PERSON'] }],
            ],
          },
        },
      ],
    };
    expect(itfSchemaProblem(adrExample)).toBeNull();
    expect(itfSchemaProblem({ ...adrExample, loop: 1 })).toBeNull();
    expect(itfSchemaProblem({ ...adrExample, loop: -1 })).not.toBeNull();
    expect(itfSchemaProblem({ ...adrExample, loop: 0.5 })).not.toBeNull();
    expect(itfSchemaProblem({ vars: ['x'], states: [{ x: 1 }] })).not.toBeNull(); // a JSON number: not since 2023
    expect(itfSchemaProblem({ vars: ['x'], states: [{ x: { '#bigint': '1.5' } }] })).not.toBeNull();
    expect(itfSchemaProblem({ vars: ['x'], states: [{ x: { '#f': 'y' } }] })).not.toBeNull();
    expect(itfSchemaProblem({ vars: ['x'], states: [{ x: null }] })).not.toBeNull();
    expect(itfSchemaProblem({ states: [] })).not.toBeNull();
  });
});

/** One scenario per loop, as test/trace/schema.test.ts runs them. */
const ONE_PER_LOOP = [
  'talk-lab',
  'systemd-crash-loop',
  'cron-clock-jumps',
  'puppet-failed-dependency',
  'terraform-drift',
  'kubernetes-replicaset',
];

describe('sim traces → ITF → traces', () => {
  it('talk-lab (the whole scenario): valid ITF, no JSON fraction, and the same frames back, byte for byte', () => {
    const { runner, scenario } = runnerFor(join(ROOT, 'scenarios', 'talk-lab.yaml'));
    runner.run(scenario.durationMs);
    const trace = runner.trace();
    const { text, back } = roundTrip(trace);
    const doc: unknown = JSON.parse(text);
    expectValidItf(doc);
    expect(back.frames).toEqual(asLoaded(trace).frames);
    expect(traceJson(back)).toBe(traceJson(trace));
  });

  it("the ITF trace: its #meta (format, source, the header) and one state per frame with the frame's variables", () => {
    const trace = simTrace('talk-lab', 60_000);
    const itf = traceToItf(trace, { source: 'scenarios/talk-lab.yaml' });
    expect(itf['#meta']).toMatchObject({
      format: 'ITF',
      'format-description': expect.stringContaining('015adr-trace'),
      source: 'scenarios/talk-lab.yaml',
    });
    expect(decodeValue(itf['#meta'].loopscope)).toEqual({
      version: 2,
      loop: 'incus-hpa',
      scenario: trace.scenario,
      seed: trace.seed,
      policy: trace.policy,
    });
    expect(itf.vars).toEqual(['t_ms', 'state', 'phase', 'event', 'notes', 'world', 'controller']);
    expect(itf.states).toHaveLength(trace.frames.length);
    expect(itf.loop).toBeUndefined();
    const i = trace.frames.findIndex((f) => f.note !== undefined);
    expect(itf.states[i]).toMatchObject({
      '#meta': { index: i },
      state: trace.frames[i]!.state,
      phase: trace.frames[i]!.phase,
      event: trace.frames[i]!.event,
      notes: trace.frames[i]!.note!.split(' · '),
    });
    expect(itf.states[0]!.notes).toEqual(trace.frames[0]!.note === undefined ? [] : [trace.frames[0]!.note]);
  });

  it.each(ONE_PER_LOOP)('%s: valid ITF with no JSON fraction, and the same trace back', (name) => {
    const trace = simTrace(name);
    const { text, back } = roundTrip(trace);
    const doc: unknown = JSON.parse(text);
    expectValidItf(doc);
    expect(traceJson(back)).toBe(traceJson(trace));
  });

  it("a systemd trace's fractional times (the watchdog's) come back exactly", () => {
    const trace = simTrace('systemd-watchdog', 20 * 60_000);
    const fractional = trace.frames.filter((f) => !Number.isInteger(f.t));
    expect(fractional.length).toBeGreaterThan(0);
    const { text, back } = roundTrip(trace);
    expect(text).toContain('"t_ms":{"#tup":["decimal",');
    expect(back.frames.map((f) => f.t)).toEqual(trace.frames.map((f) => f.t));
  });

  it('a version 1 trace (no controller): no controller variable, and back as it loads', () => {
    const loaded = parseTraceText(readFileSync(join(import.meta.dirname, 'fixtures', 'talk-lab.v1.json'), 'utf8'));
    if (!loaded.ok) throw new Error(loaded.error);
    const itf = traceToItf(loaded.trace);
    expect(itf.vars).not.toContain('controller');
    const back = itfToTrace(json(itf));
    expect(back).toEqual({ ok: true, trace: loaded.trace });
  });

  it("a trace with a lasso writes ITF's loop, and reads it back as the lasso", () => {
    const trace = { ...simTrace('talk-lab', 60_000), lasso: { cycleStart: 3 } };
    const itf = traceToItf(trace);
    expect(itf.loop).toBe(3);
    expect(roundTrip(trace).back.lasso).toEqual({ cycleStart: 3 });
  });
});

describe('ITF files loopscope did not write, or that are broken: the first problem, with its path', () => {
  const itf = () => structuredClone(traceToItf(simTrace('talk-lab', 30_000)));
  const errorOf = (doc: unknown) => {
    const r = itfToTrace(doc);
    return r.ok ? 'accepted' : r.error;
  };

  it('refuses each with one line naming where and what was expected', () => {
    expect(errorOf({ ...itf(), '#meta': { format: 'ITF' } })).toMatch(
      /^#meta\.loopscope: expected the trace header loopscope writes .*not written by loopscope/,
    );
    expect(errorOf({ ...itf(), vars: ['x'], states: [{ x: true }] })).toMatch(
      /^vars: expected the variables t_ms, state, .* missing "t_ms"/,
    );
    const noWorld = itf();
    delete noWorld.states[1]!.world;
    expect(errorOf(noWorld)).toBe('states.1.world: expected a value (every state sets every variable in vars)');
    const badPhase = itf();
    badPhase.states[2]!.phase = 'dancing';
    expect(errorOf(badPhase)).toMatch(/^states\.2\.phase: expected one of observe, /);
    const float: unknown = JSON.parse(itfJson(itf()).replace(/"t_ms":\{"#bigint":"\d+"\}/, '"t_ms":1.5'));
    expect(errorOf(float)).toMatch(/^states\.0\.t_ms: .*ITF has no fractions/);
    expect(errorOf({ ...itf(), loop: 10_000 })).toMatch(/^loop: expected the index of a state \(a whole number below \d+\), got 10000$/);
    expect(errorOf({ ...itf(), states: [] })).toBe('states: expected a list of states (at least one)');
    expect(errorOf([])).toMatch(/^\(top level\)/);
  });

  it("the loader's parse function still reads loopscope traces and says malformed JSON", () => {
    const trace = simTrace('talk-lab', 30_000);
    expect(parseAnyTraceText(traceJson(trace))).toEqual({ ok: true, trace });
    expect(parseAnyTraceText('{"vars":')).toMatchObject({ ok: false, error: expect.stringMatching(/^malformed JSON: /) });
  });
});

describe('the lab opens ITF files', () => {
  it("the trace loader's parse and state check accept an ITF counterexample-like trace (with a lasso)", () => {
    const trace = { ...simTrace('talk-lab', 60_000), lasso: { cycleStart: 2 } };
    const r = parseAnyTraceText(itfJson(traceToItf(trace)));
    if (!r.ok) throw new Error(r.error);
    expect(traceStateProblem(r.trace)).toBeNull();
    expect(r.trace.lasso).toEqual({ cycleStart: 2 });
  });

  it('`loopscope lab file.itf.json` takes it as a trace file for the page', () => {
    const file = join(TMP, 'talk-lab.itf.json');
    writeFileSync(file, itfJson(traceToItf(simTrace('talk-lab', 30_000))));
    expect(readLabFiles([file]).map((f) => f.page.kind)).toEqual(['trace']);
    writeFileSync(file, '{"vars":[],"states":[{}]}');
    expect(() => readLabFiles([file])).toThrow(/expected a loopscope trace .*or ITF.*vars: expected the variables/);
  });
});
