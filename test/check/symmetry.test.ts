import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../sim/check/check';
import { checkScenario, checkScenarioAsync, prepareCheck } from '../../sim/check/check';
import { formatReport } from '../../sim/check/report';
import { stateKey } from '../../sim/check/symmetry';
import { loadScenario } from '../../sim/loops';
import { ceilingEntry } from './symmetry-ceiling';

const files = readdirSync('scenarios')
  .filter((f) => /-check-.*\.yaml$/.test(f))
  .sort()
  .map((f) => `scenarios/${f}`);
const summary = (r: CheckRun) => r.result.verdicts.map((v) => ({ name: v.property.name, status: v.status, length: v.path?.length }));

describe('symmetry reduction keeps verdicts and shortest counterexample lengths', () => {
  // A loop with interchangeable objects is searched with and without the reduction; a loop without
  // any says why, and check reports it (factor 1.00). Today every loop says why (sim/properties/*.ts).
  for (const file of files) {
    it(`${file}: symmetry on = off, or none for this loop (and why)`, () => {
      const { entry, scenario } = loadScenario(file);
      const p = prepareCheck(entry, scenario);
      const { symmetry } = stateKey(p.check, { config: p.config, world: scenario.world }, p.alphabet, true);
      if (symmetry.state === 'none') {
        expect(symmetry.detail.length).toBeGreaterThan(20);
        return;
      }
      expect(symmetry.state).toBe('on');
      const off = checkScenario(entry, scenario, { symmetry: false });
      const on = checkScenario(entry, scenario, { symmetry: true });
      expect(summary(on)).toEqual(summary(off));
      expect(on.result.stats.distinct).toBeLessThanOrEqual(off.result.stats.distinct);
    }, 600_000);
  }

  it('check reports a loop without symmetry as factor 1.00, with its reason', () => {
    const { entry, scenario } = loadScenario('scenarios/terraform-check-orphan-name.yaml');
    const run = checkScenario(entry, scenario);
    expect(run.result.stats.symmetry).toEqual({ state: 'none', detail: expect.stringContaining('address') });
    expect(formatReport(run)).toMatch(/^symmetry: none for this loop, factor 1\.00 — every resource has its own address/m);
  });
});

describe('the machinery, driven by a key that merges states (the unsound ceiling: test/check/symmetry-ceiling.ts)', () => {
  const { entry, scenario } = loadScenario('scenarios/kubernetes-check-replicaset-no-expectations.yaml');
  const ceiling = ceilingEntry(entry);
  const podNames = (run: CheckRun) =>
    run.counterexamples.flatMap((c) => c.trace.frames.flatMap((f) => (f.world as { pods: { name: string }[] }).pods.map((p) => p.name)));

  it('merges states only when on, reports which, and its counterexamples are replayed with real names', () => {
    const on = checkScenario(ceiling, scenario, { symmetry: true });
    const off = checkScenario(ceiling, scenario, { symmetry: false });
    expect(on.result.stats.symmetry?.state).toBe('on');
    expect(off.result.stats.symmetry?.state).toBe('off');
    expect(on.result.stats.distinct).toBeLessThan(off.result.stats.distinct);
    expect(off.result.stats.distinct).toBe(checkScenario(entry, scenario).result.stats.distinct);
    expect(formatReport(on)).toMatch(/^symmetry: on — generated names erased .*: \d+ distinct states up to renaming/m);
    // The key erases suffixes ("web-*"); the trace is the Runner's replay of the moves, so its pods have
    // the generator's names (counterexampleTrace also re-judges the property at the end: it throws if not violated).
    expect(on.counterexamples.length).toBeGreaterThan(0);
    const names = podNames(on);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  }, 120_000);

  it('a loop without symmetry: --workers 2 with symmetry on and off = one thread', async () => {
    const file = loadScenario('scenarios/incus-hpa-check-small.yaml');
    const sequential = checkScenario(file.entry, file.scenario);
    for (const symmetry of [true, false]) {
      const parallel = await checkScenarioAsync(file.entry, file.scenario, { workers: 2, parallelNow: true, symmetry });
      expect(parallel.result.stats.workers).toBe(2);
      expect(parallel.result.stats.symmetry?.state).toBe('none');
      expect(summary(parallel)).toEqual(summary(sequential));
      expect(parallel.result.stats.distinct).toBe(sequential.result.stats.distinct);
    }
  }, 600_000);
});

describe('loopscope check --no-symmetry', () => {
  it('is accepted, and the JSON report says what the search did about symmetry', () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));
    const stats = (...args: string[]) => {
      const r = spawnSync(
        'cli/loopscope',
        ['check', 'scenarios/terraform-check-orphan-name.yaml', '--format', 'json', '--no-progress', ...args],
        { encoding: 'utf8', env },
      );
      return (JSON.parse(r.stdout) as { runs: { stats: { distinct: number; symmetry: { state: string } } }[] }).runs[0]!.stats;
    };
    const on = stats();
    const off = stats('--no-symmetry');
    expect(on.symmetry.state).toBe('none');
    expect(off.symmetry.state).toBe('none');
    expect(off.distinct).toBe(on.distinct);
  }, 120_000);
});
