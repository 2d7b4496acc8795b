// "Did you mean …?": the edit distance and its threshold (sim/scenario/suggest.ts), then each place a
// user types a name loopscope knows — a scenario's keys, its loop, a policy (flag, scenario, hpa.yaml),
// hpa.yaml's keys in real mode, a subcommand and an option (commander's own) — through the command
// line in this process: one line naming the file and field, the name meant, exit 2.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from '../../sim/scenario/suggest';
import { propertyRuns } from '../property-runs';
import { runInProcess } from './in-process';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-suggest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
const scenario = (name: string) => readFileSync(join(ROOT, 'scenarios', `${name}.yaml`), 'utf8');

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['seed', 'sed', 1],
    ['incus-hap', 'incus-hpa', 1], // a swap of neighbours is one edit
    ['memoryThreshhold', 'memoryThreshold', 1],
    ['abc', 'cab', 2],
  ])('%j → %j: %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  const word = fc.string({ unit: fc.constantFrom(...'abcdefgh-'), maxLength: 12 });
  it('is 0 only for equal words, symmetric, at most the longer length', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = editDistance(a, b);
        expect(d === 0).toBe(a === b);
        expect(editDistance(b, a)).toBe(d);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('one insertion, deletion, substitution or swap is one edit', () => {
    const edit = fc.tuple(
      word.filter((w) => w.length >= 2),
      fc.nat(),
      fc.constantFrom('insert', 'delete', 'substitute', 'swap'),
      fc.constantFrom(...'xyz'),
    );
    fc.assert(
      fc.property(edit, ([w, at, how, c]) => {
        const i = at % (w.length - 1);
        const edited =
          how === 'insert'
            ? w.slice(0, i) + c + w.slice(i)
            : how === 'delete'
              ? w.slice(0, i) + w.slice(i + 1)
              : how === 'substitute'
                ? w.slice(0, i) + c + w.slice(i + 1)
                : w.slice(0, i) + w[i + 1]! + w[i]! + w.slice(i + 2);
        expect(editDistance(w, edited)).toBeLessThanOrEqual(1);
      }),
      { numRuns: propertyRuns() },
    );
  });
});

describe('closest: only a near miss is suggested', () => {
  const KEYS = ['minPods', 'maxPods', 'cpuThreshold', 'memoryThreshold'];
  it.each([
    ['memoryThreshhold', KEYS, 'memoryThreshold'],
    ['maxpods', KEYS, 'maxPods'], // letter case is no edit
    ['cpuTreshold', KEYS, 'cpuThreshold'],
    ['sed', ['seed', 'kubernetes', 'fixed'], 'seed'],
    ['incus-hap', ['cron', 'incus-hpa', 'kubernetes'], 'incus-hpa'],
    ['chek', ['sim', 'check', 'real'], 'check'],
  ])('%s → %s', (word, candidates, meant) => {
    expect(closest(word, candidates)).toBe(meant);
    expect(didYouMean(word, candidates)).toBe(` (did you mean ${meant}?)`);
  });

  it.each([
    ['colour', KEYS], // merely different
    ['ab', ['cd', 'xy']], // 2 edits in 2 letters is no typo
    ['x', ['y']],
    ['seed', ['seed', 'sed']], // an exact match is no typo
    ['maxPodsAndMore', KEYS], // 7 edits
    ['', KEYS],
  ])('%s: none', (word, candidates) => {
    expect(closest(word, candidates)).toBeUndefined();
    expect(didYouMean(word, candidates)).toBe('');
  });

  it('a word that is not text gets no guess', () => {
    expect(didYouMean(undefined, KEYS)).toBe('');
    expect(didYouMean(3, ['3'])).toBe('');
  });

  it('never suggests more than 2 edits, nor more than a third of the word', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcde'), maxLength: 10 });
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 6 }), (w, candidates) => {
        const near = closest(w, candidates);
        if (near === undefined) return;
        const d = editDistance(w.toLowerCase(), near.toLowerCase());
        expect(d).toBeLessThanOrEqual(2);
        expect(d).toBeLessThanOrEqual(w.length / 3);
        // and it is the nearest
        for (const c of candidates) expect(editDistance(w.toLowerCase(), c.toLowerCase())).toBeGreaterThanOrEqual(d);
      }),
      { numRuns: propertyRuns() },
    );
  });
});

/** The command's stderr lines, without the "loopscope: " each starts with. */
async function rejected(args: string[]): Promise<string[]> {
  const r = await runInProcess(args);
  expect(r.code, r.stderr).toBe(2);
  return r.stderr.split('\n').filter((l) => l !== '');
}

describe('through the command line', () => {
  it('a misspelt scenario key: one line per key, naming the file and field, and the key meant', async () => {
    const file = write(
      'typo.yaml',
      scenario('incus-hpa-check-small').replace('memoryThreshold: 50', 'memoryThreshhold: 50').replace('seed: 1', 'sed: 1\ncolour: blue'),
    );
    expect(await rejected(['sim', file])).toEqual([
      `loopscope: ${file}: config.HPA.memoryThreshhold: unknown key (did you mean memoryThreshold?)`,
      `loopscope: ${file}: sed: unknown key (did you mean seed?)`,
      `loopscope: ${file}: colour: unknown key (not part of the format)`,
    ]);
  });

  it('in every loop: a misspelt key deep in a kubernetes scenario', async () => {
    const file = write('kube.yaml', scenario('kubernetes-check-hpa').replace('initialReadinessDelay:', 'initialReadinesDelay:'));
    expect(await rejected(['sim', file])).toEqual([
      `loopscope: ${file}: options.initialReadinesDelay: unknown key (did you mean initialReadinessDelay?)`,
    ]);
  });

  it('a misspelt loop', async () => {
    const file = write('loop.yaml', 'loop: incus-hap\n');
    const [line] = await rejected(['sim', file]);
    expect(line).toBe(
      `loopscope: ${file}: loop: expected one of incus-hpa, systemd-restart, cron, puppet, terraform, kubernetes, got "incus-hap" (did you mean incus-hpa?)`,
    );
  });

  it("a misspelt policy: --policy of sim and check, a scenario's config, a kubernetes HPA's options", async () => {
    const small = join(ROOT, 'scenarios/incus-hpa-check-small.yaml');
    expect(await rejected(['sim', small, '--policy', 'sed'])).toEqual([
      'loopscope: --policy: expected one of seed, kubernetes, fixed (the policies of incus-hpa), got "sed" (did you mean seed?)',
    ]);
    expect(await rejected(['check', small, '--policy', 'fixd'])).toEqual([
      'loopscope: --policy: expected one of seed, kubernetes, fixed (the policies of incus-hpa), got "fixd" (did you mean fixed?)',
    ]);
    const inConfig = write('policy.yaml', scenario('incus-hpa-check-small').replace('policy: fixed', 'policy: kubernetis'));
    expect(await rejected(['sim', inConfig])).toEqual([
      `loopscope: ${inConfig}: config.policy: expected one of seed, kubernetes, fixed or { module: ./my-policy.ts } (did you mean kubernetes?)`,
    ]);
    const kube = write('kube-policy.yaml', scenario('kubernetes-check-hpa').replace('options: {', 'options: { policy: sede,'));
    expect(await rejected(['sim', kube])).toEqual([`loopscope: ${kube}: options.policy: expected kubernetes or seed (did you mean seed?)`]);
  });

  it('a far-off policy gets the list only', async () => {
    const [line] = await rejected(['sim', join(ROOT, 'scenarios/incus-hpa-check-small.yaml'), '--policy', 'aggressive']);
    expect(line).toBe('loopscope: --policy: expected one of seed, kubernetes, fixed (the policies of incus-hpa), got "aggressive"');
  });

  it('check --format', async () => {
    expect(await rejected(['check', join(ROOT, 'scenarios/incus-hpa-check-small.yaml'), '--format', 'jsno'])).toEqual([
      'loopscope: --format: expected one of text, json, junit, got "jsno" (did you mean json?)',
    ]);
  });

  it("hpa.yaml in real mode: its keys, real mode's own keys, placement, the policy and --policy", async () => {
    const config = write('hpa.yaml', 'name: web\nHPA: { maxpods: 3 }\nimagee: busybox\npolicy: sed\n');
    expect((await rejected(['real', 'systemd-unit', '--config', config])).sort()).toEqual([
      `loopscope: ${config}: HPA.maxpods: unknown key (did you mean maxPods?)`,
      `loopscope: ${config}: imagee: unknown key (did you mean image?)`,
      `loopscope: ${config}: policy: expected one of seed, kubernetes, fixed or { module: ./my-policy.ts } (did you mean seed?)`,
    ]);
    const placement = write('placement.yaml', 'name: web\nplacement: { target: m1, targets: m2, spread: true }\n');
    expect(await rejected(['real', 'systemd-unit', '--config', placement])).toEqual([
      `loopscope: ${placement}: placement.targets: unknown key (did you mean target?)`,
      `loopscope: ${placement}: placement.spread: unknown key (placement takes only target)`,
    ]);
    const ok = write('ok.yaml', 'name: web\nHPA: { maxPods: 3 }\n');
    expect(await rejected(['real', 'systemd-unit', '--config', ok, '--policy', 'kubernetess'])).toEqual([
      'loopscope: --policy: expected one of seed, kubernetes, fixed, got "kubernetess" (did you mean kubernetes?)',
    ]);
  });

  it('a subcommand and an option: commander suggests them, exit 2', async () => {
    const command = await runInProcess(['chek', 'x.yaml']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command 'chek'.*\n?.*\(Did you mean check\?\)/);
    const option = await runInProcess(['check', '--max-state', '5', 'x.yaml']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/unknown option '--max-state'.*\n?.*\(Did you mean --max-states\?\)/);
  });
});
