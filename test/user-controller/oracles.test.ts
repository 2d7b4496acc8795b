// The checks a user's controller gets without writing a property: level-
// triggered idempotence and Acto's differential oracle. Each finds its planted bug with a pinned
// shortest trace, and the fixed controller holds on the same bounds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../sim/check/check';
import { checkScenario } from '../../sim/check/check';
import { prepareCheck } from '../../sim/check/check';
import { loadScenario } from '../../sim/loops';
import { keySafety } from '../contract/key-safety';

const CLI = join(resolve(import.meta.dirname, '../..'), 'cli/loopscope');

const movesOf = (run: CheckRun, steps: readonly { kind: string; index?: number }[]) =>
  steps.flatMap((s) => (s.kind === 'env' && s.index !== undefined ? [run.alphabet[s.index]!.label] : []));

function check(file: string, maxStates?: number) {
  const { entry, scenario } = loadScenario(file);
  const run = checkScenario(entry, scenario, maxStates ? { maxStates } : {});
  return { run, verdicts: Object.fromEntries(run.result.verdicts.map((v) => [v.property.name, v.status])) };
}

describe('idempotence: reconciling the state its own writes left changes nothing', () => {
  it('a reconcile counter in an annotation (patched every time) is found with its shortest trace', () => {
    // The counter never settles: the state space is unbounded, so the search is bounded here.
    const { run, verdicts } = check('examples/podservice/check-counting.yaml', 1500);
    expect(verdicts.idempotent).toBe('violated');
    const c = run.counterexamples.find((x) => x.property === 'idempotent')!;
    expect({ steps: c.path.length, moves: movesOf(run, c.path) }).toEqual({
      steps: 14,
      moves: ["controller crash (after a reconcile's writes)"],
    });
    const last = c.trace.frames.at(-1)!;
    expect(last.note).toMatch(/^reconcile default\/web: patch PodService web · ✗ idempotent/);
    // The run before it: the first reconcile created, created and patched; nothing else happened.
    expect(c.trace.frames.map((f) => f.note ?? '').join('\n')).toContain('PATCH podservice web');
  }, 60_000);

  it('the correct controller holds, with and without a spec change that makes it repair its children', () => {
    for (const file of ['examples/podservice/check.yaml', 'examples/podservice/check-spec-change.yaml']) {
      const { run, verdicts } = check(file);
      expect(run.result.stats.complete, file).toBe(true);
      expect(verdicts.idempotent, file).toBe('holds');
    }
  }, 60_000);
});

describe('the canonical key with the idempotence monitor in the world', () => {
  it('merges only states with equal futures (the contract suite covers shipped scenarios, not user modules)', () => {
    for (const [file, limit] of [
      ['examples/podservice/check-spec-change.yaml', 800],
      ['examples/podservice/check-counting.yaml', 600],
    ] as const) {
      const { entry, scenario } = loadScenario(file);
      const p = prepareCheck(entry, scenario);
      const report = keySafety(entry.binding, p.check, { config: p.config, world: scenario.world }, p.alphabet, limit);
      expect(report.merges, file).toBeGreaterThan(0);
      expect(report.mismatches, file).toEqual([]);
    }
  }, 60_000);
});

describe('differential oracle: the same desired state ends in the same world, whatever the history', () => {
  it('a controller that creates its children and never repairs them: both histories, with what differs', () => {
    const { run, verdicts } = check('examples/podservice/check-create-only.yaml');
    expect(run.result.stats.complete).toBe(true);
    expect(verdicts).toMatchObject({ differential: 'violated', idempotent: 'holds', converges: 'holds', 'one-pod': 'holds' });
    const c = run.counterexamples.find((x) => x.property === 'differential')!;
    expect(c.path.length).toBe(22);
    expect(movesOf(run, c.path)[0]).toMatch(/^kubectl apply podservice\/web .*"port":8080/);
    expect(c.trace.frames.at(-1)!.note).toContain('✗ differential');
    expect(c.other?.difference).toBe(
      'Pod default/web-pod spec: {"containers":[{"cpuMilli":100,"image":"nginx:1.27","name":"app","port":80}]} here, ' +
        '{"containers":[{"cpuMilli":100,"image":"nginx:1.27","name":"app","port":8080}]} from the start; ' +
        'Service default/web-svc spec: {"port":80,"selector":{"app":"web"}} here, {"port":8080,"selector":{"app":"web"}} from the start',
    );
    // The other history is a real run of the same scenario: the desired state from the start, no faults.
    expect(c.other?.trace.scenario).toBe('podservice-module-create-only · the same desired state applied from the start, no faults');
    expect(c.other?.trace.frames.some((f) => f.note === 'POST service web-svc → default/web: done: Forget')).toBe(true);
    // Deterministic: a second check gives byte-identical traces of both histories.
    const again = check('examples/podservice/check-create-only.yaml').run.counterexamples.find((x) => x.property === 'differential')!;
    expect(JSON.stringify(again.other?.trace)).toBe(JSON.stringify(c.other?.trace));
    expect(JSON.stringify(again.trace)).toBe(JSON.stringify(c.trace));
  }, 60_000);

  it('the controller that repairs its children holds on the same bounds', () => {
    const { run, verdicts } = check('examples/podservice/check-spec-change.yaml');
    expect(run.result.stats.complete).toBe(true);
    expect(Object.entries(verdicts).filter(([, v]) => v !== 'holds')).toEqual([]);
    expect(run.result.stats.distinct).toBe(778);
  }, 60_000);

  it('loopscope check prints both histories and writes both traces (--out), exit 1', () => {
    const out = mkdtempSync(join(tmpdir(), 'loopscope-differential-'));
    const r = spawnSync(CLI, ['check', '--workers', '1', '--out', out, 'examples/podservice/check-create-only.yaml'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/✗ always\s+differential/);
    expect(r.stdout).toContain('## the other history: the same desired state applied from the start, no faults');
    expect(r.stdout).toContain(
      'Service default/web-svc spec: {"port":80,"selector":{"app":"web"}} here, {"port":8080,"selector":{"app":"web"}} from the start',
    );
    const other = join(out, 'podservice-module-create-only.differential.other.trace.json');
    expect(existsSync(join(out, 'podservice-module-create-only.differential.trace.json'))).toBe(true);
    expect(JSON.parse(readFileSync(other, 'utf8')).scenario).toBe(
      'podservice-module-create-only · the same desired state applied from the start, no faults',
    );
  }, 120_000);
});
