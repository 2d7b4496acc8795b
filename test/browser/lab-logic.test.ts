// The lab's logic without a browser: sessions (time travel), the config editor, trace files,
// the statechart graph and its build-time layout, the URL.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HpaConfig } from '../../machines/incus-hpa';
import { incusHpaMachine } from '../../machines/incus-hpa';
import { LOOPS, runnerFor } from '../../sim/loops/index';
import type { AnyRunner } from '../../web/lab/session';
import { LabSession } from '../../web/lab/session';
import { parseTraceText } from '../../sim/trace-schema';
import { readUrl, urlSearch } from '../../web/lab/url';
import { activeIds, eventLabel, machineGraph } from '../../web/statechart/graph';
import { computeLayouts } from '../../web/statechart/build-layouts';
import { configToYaml, parseConfigEdit } from '../../web/worlds/incus-hpa/configEdit';
import { ROOT } from './harness';

const talkLab = () => runnerFor(join(ROOT, 'scenarios/talk-lab.yaml'), { checkpoints: true });
const simSession = () => {
  const { runner, scenario } = talkLab();
  return new LabSession({ kind: 'sim', runner: runner as AnyRunner, durationMs: scenario.durationMs, scenario: scenario.name });
};

describe('LabSession over a simulation', () => {
  it('steps phase by phase and back to the same frame', () => {
    const s = simSession();
    const phases = [s.frame.phase];
    for (let i = 0; i < 6; i++) {
      s.step();
      phases.push(s.frame.phase);
    }
    expect(phases).toEqual(['observe', 'compare', 'wait', 'observe', 'compare', 'wait', 'observe']);
    const at = { n: s.frames.length, state: s.frame.state, t: s.time };
    s.step();
    s.stepBack();
    expect({ n: s.frames.length, state: s.frame.state, t: s.time }).toEqual(at);
  });

  it('seeking into the past replays recorded frames, then returns to the present', () => {
    const s = simSession();
    s.advanceTo(3 * 60_000);
    const end = s.frames.length;
    s.seek(2);
    expect(s.atPresent).toBe(false);
    expect(s.index).toBe(2);
    expect(s.frames.length).toBe(end); // looking back changes nothing
    for (let i = 0; i < end && !s.atPresent; i++) s.step();
    expect(s.atPresent).toBe(true);
    expect(s.frames.length).toBe(end);
  });

  it('a fault injected while looking at the past applies at the present', () => {
    const s = simSession();
    s.advanceTo(30_000);
    s.seek(0);
    s.inject({ kind: 'kill', instance: 'pod' });
    expect(s.atPresent).toBe(true);
    expect(s.frame.event).toBe('world.inject');
    expect((s.frame.world as { pods: { status: string }[] }).pods[0]!.status).toBe('Stopped');
  });

  it('a frame is drawn with the config it ran under: an edit changes later frames only, and a fork forgets it', () => {
    const s = simSession();
    const before = (s.config as HpaConfig).maxPods;
    s.advanceTo(30_000);
    const edited = s.frames.length;
    s.update({ maxPods: before + 3 });
    s.advanceTo(60_000);
    expect((s.config as HpaConfig).maxPods).toBe(before + 3);
    s.seek(edited - 1);
    expect((s.config as HpaConfig).maxPods).toBe(before);
    s.seek(edited);
    expect((s.config as HpaConfig).maxPods).toBe(before + 3);
    // Forking before the edit: the run goes on under the config it had then.
    s.seek(2);
    s.presentAt(s.frame.t);
    expect((s.config as HpaConfig).maxPods).toBe(before);
  });

  it('play stops at the scenario duration', () => {
    const s = simSession();
    s.advanceTo(10 * 3_600_000);
    expect(s.time).toBe(s.durationMs);
    expect(s.finished).toBe(true);
  });
});

describe('LabSession over a loaded trace', () => {
  it('steps and rewinds by phase over the frames, and plays by time', () => {
    const { runner } = talkLab();
    runner.run(2 * 60_000);
    const s = new LabSession({ kind: 'trace', trace: runner.trace(), fileName: 't.json' });
    expect(s.index).toBe(0);
    s.step();
    expect(s.frame.phase).toBe('compare');
    s.step();
    expect(s.frame.phase).toBe('wait');
    s.stepBack();
    expect(s.frame.phase).toBe('compare');
    s.advanceTo(60_000);
    expect(s.frame.t).toBeLessThanOrEqual(60_000);
    expect(s.frames[s.index + 1]!.t).toBeGreaterThan(60_000);
  });
});

describe('desired-state editor (hpa.yaml)', () => {
  const running = talkLab().runner.config as HpaConfig;
  it('round-trips the running config and returns only the keys the file sets', () => {
    expect(parseConfigEdit(configToYaml(running), running)).toEqual({
      ok: true,
      change: { minPods: 1, maxPods: 5, memoryThreshold: 40, policy: 'seed', periodMs: 15_000 },
    });
    expect(parseConfigEdit('HPA: { maxPods: 8 }', running)).toEqual({ ok: true, change: { maxPods: 8 } });
  });
  it('names the file, the field and the expectation for bad edits', () => {
    const bad = (text: string) => {
      const r = parseConfigEdit(text, running);
      return r.ok ? [] : r.errors;
    };
    expect(bad('HPA: { minPods: 9 }')).toEqual(['hpa.yaml: HPA.maxPods: expected maxPods ≥ minPods (minPods is 9, maxPods is 5)']);
    expect(bad('HPA: { memoryThreshold: 0 }')[0]).toMatch(/^hpa\.yaml: HPA\.memoryThreshold: expected a percentage/);
    expect(bad('colour: blue')[0]).toMatch(/^hpa\.yaml: colour: unknown key/);
    expect(bad('HPA: [1, 2')[0]).toMatch(/^hpa\.yaml: line 1, column \d+: malformed YAML/);
    expect(bad('policy: magic')[0]).toMatch(/policy: expected one of seed, kubernetes, fixed/);
  });
});

describe('trace files', () => {
  it('accepts what the runner writes (loopscope sim --json) and refuses other JSON with a reason', () => {
    const { runner } = talkLab();
    runner.run(60_000);
    const text = JSON.stringify(runner.trace());
    const ok = parseTraceText(text);
    expect(ok.ok && ok.trace.frames.length).toBe(runner.frames.length);
    expect(parseTraceText('{')).toMatchObject({ ok: false, error: expect.stringMatching(/malformed JSON/) });
    expect(parseTraceText('{"loop":"x","scenario":"s","seed":1,"frames":[]}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^loop: expected one of cron, puppet, /),
    });
    expect(parseTraceText('{"loop":"incus-hpa","scenario":"s","seed":1,"frames":[]}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^frames: expected at least one frame/),
    });
    const badPhase = JSON.stringify({ ...runner.trace(), frames: [{ ...runner.frames[0], phase: 'dance' }] });
    expect(parseTraceText(badPhase)).toMatchObject({ ok: false, error: expect.stringMatching(/^frames\.0\.phase/) });
  });
});

describe('statechart from the machine', () => {
  it('has every state, nested, and every transition including eventless ones', () => {
    const g = machineGraph(incusHpaMachine);
    const byId = Object.fromEntries(g.nodes.map((n) => [n.id, n]));
    expect(Object.keys(byId).sort()).toEqual(
      ['acting', 'acting.creating', 'acting.deleting', 'acting.next', 'backoff', 'comparing', 'observing', 'waiting'].map(
        (s) => `incus-hpa.${s}`,
      ),
    );
    expect(byId['incus-hpa.acting.creating']!.parent).toBe('incus-hpa.acting');
    expect(byId['incus-hpa.acting']!.compound).toBe(true);
    expect(byId['incus-hpa.observing']!.initial).toBe(true);
    const edges = g.edges.map((e) => `${e.source.slice(10)} -${e.label}-> ${e.target.slice(10)}`);
    expect(edges).toContain('acting.next -always [nextIsCreate]-> acting.creating');
    expect(edges).toContain('comparing -after compareTime [hasActions]-> acting');
    expect(edges).toContain('observing -error observe-> backoff');
    expect(edges.some((e) => e.includes('CONFIG.UPDATE'))).toBe(false); // targetless: context only
    expect([...activeIds(g.rootId, 'acting.creating')]).toEqual(['incus-hpa.acting', 'incus-hpa.acting.creating']);
    expect(eventLabel('xstate.after.period.incus-hpa.waiting')).toBe('after period');
  });

  it('lays out every registered loop: children inside their parent, siblings apart', async () => {
    const layouts = await computeLayouts();
    for (const entry of Object.values(LOOPS)) {
      const machine = entry.binding.machine;
      const g = machineGraph(machine);
      const placed = new Map(layouts[machine.id]!.nodes.map((n) => [n.id, n]));
      for (const n of g.nodes) {
        const p = placed.get(n.id);
        expect(p, `${n.id} placed`).toBeDefined();
        if (n.parent) {
          const parent = placed.get(n.parent)!;
          expect(
            p!.x >= 0 && p!.y >= 0 && p!.x + p!.width <= parent.width && p!.y + p!.height <= parent.height,
            `${n.id} inside ${n.parent}`,
          ).toBe(true);
        }
      }
      for (const a of g.nodes)
        for (const b of g.nodes) {
          if (a.id >= b.id || a.parent !== b.parent) continue;
          const [p, q] = [placed.get(a.id)!, placed.get(b.id)!];
          const overlap = p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
          expect(overlap, `${a.id} and ${b.id} overlap`).toBe(false);
        }
      expect(layouts[machine.id]!.edges.length).toBe(g.edges.length);
    }
  });
});

describe('URL of a moment', () => {
  it('round-trips loop, scenario, seed, policy, time, presenter and language', () => {
    const search = '?loop=incus-hpa&scenario=talk-lab&seed=4&policy=kubernetes&t=90000&presenter=1&lang=pt-BR';
    const u = readUrl(search);
    expect(u).toEqual({
      loop: 'incus-hpa',
      scenario: 'talk-lab',
      seed: 4,
      policy: 'kubernetes',
      t: 90_000,
      presenter: true,
      lang: 'pt-BR',
    });
    expect(urlSearch(u)).toBe(search);
    expect(readUrl('?seed=-1&t=abc&lang=fr')).toEqual({ presenter: false, lang: 'en' });
  });
});
