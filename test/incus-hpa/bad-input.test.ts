import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'loopscope-bad-'));

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await run('./cli/loopscope', args, { encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

function scenario(name: string, body: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, body);
  return file;
}

const valid = (hpa: string) => `loop: incus-hpa\nduration: 1m\nconfig:\n  HPA: ${hpa}\n`;

// Each case: the file, then what the one-line message must name (field, expectation).
const cases: [string, () => string[], RegExp][] = [
  [
    'malformed YAML',
    () => ['sim', scenario('malformed', 'loop: incus-hpa\nconfig: {HPA: [1, 2\n')],
    /malformed\.yaml: line \d+, column \d+: malformed YAML/,
  ],
  [
    'unknown key',
    () => ['sim', scenario('unknown', valid('{ minPods: 1, maxPods: 2, memoryThresold: 40 }'))],
    /unknown\.yaml: config\.HPA\.memoryThresold: unknown key/,
  ],
  ['unknown top-level key', () => ['sim', scenario('unknown-top', 'loop: incus-hpa\nspeed: 3\n')], /unknown-top\.yaml: speed: unknown key/],
  [
    'min > max',
    () => ['sim', scenario('minmax', valid('{ minPods: 4, maxPods: 2 }'))],
    /minmax\.yaml: config\.HPA\.maxPods: expected maxPods ≥ minPods \(minPods is 4, maxPods is 2\)/,
  ],
  [
    'threshold 0',
    () => ['sim', scenario('thr0', valid('{ memoryThreshold: 0 }'))],
    /thr0\.yaml: config\.HPA\.memoryThreshold: expected a percentage: a whole number from 1 to 100/,
  ],
  [
    'threshold 101',
    () => ['sim', scenario('thr101', valid('{ memoryThreshold: 101 }'))],
    /thr101\.yaml: config\.HPA\.memoryThreshold: expected a percentage/,
  ],
  [
    'negative count',
    () => ['sim', scenario('neg', valid('{ minPods: -1 }'))],
    /neg\.yaml: config\.HPA\.minPods: expected a pod count: a whole number ≥ 0/,
  ],
  [
    'non-integer count',
    () => ['sim', scenario('frac', valid('{ maxPods: 2.5 }'))],
    /frac\.yaml: config\.HPA\.maxPods: expected a pod count: a whole number ≥ 0/,
  ],
  ['count as text', () => ['sim', scenario('text', valid('{ maxPods: many }'))], /text\.yaml: config\.HPA\.maxPods: expected a pod count/],
  ['missing file', () => ['sim', join(dir, 'nope.yaml')], /nope\.yaml: file not found/],
  ['unknown loop', () => ['sim', scenario('loop', 'loop: no-such-loop\n')], /loop\.yaml: loop: expected one of incus-hpa/],
  ['bad duration', () => ['sim', scenario('dur', 'loop: incus-hpa\nduration: soon\n')], /dur\.yaml: duration: expected a duration/],
  [
    'timeline entry with two changes',
    () => ['sim', scenario('tl', 'loop: incus-hpa\ntimeline:\n  - { at: 1m, demand: 1GB, kill: pod }\n')],
    /tl\.yaml: timeline\[0\]: expected "at" and exactly one change/,
  ],
  ['bad --seed', () => ['sim', 'scenarios/talk-lab.yaml', '--seed', '-3'], /--seed: expected a whole number ≥ 0/],
  ['bad --policy', () => ['sim', 'scenarios/talk-lab.yaml', '--policy', 'magic'], /--policy: expected one of seed, kubernetes, fixed/],
  ['bad --until', () => ['sim', 'scenarios/talk-lab.yaml', '--until', 'forever'], /--until: expected a duration/],
];

describe('bad input: one clear message naming file, field and expectation; exit 2; nothing runs', () => {
  // In-process (the same runCli the binary calls): a process each cost ~1.5 s of tsx start-up;
  // the binary itself is run below and by test/cli/fuzz-inputs.test.ts.
  it.each(cases)('%s', async (_name, args, message) => {
    const { code, stdout, stderr } = await runInProcess(args());
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });

  it('the valid talk scenario prints a timeline and exits 0', async () => {
    const { code, stdout } = await cli(['sim', 'scenarios/talk-lab.yaml', '--until', '2m']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/create 1 pod/);
  });

  it('same seed → byte-identical output', async () => {
    const a = await cli(['sim', 'scenarios/flapping.yaml', '--json', '--seed', '9']);
    const b = await cli(['sim', 'scenarios/flapping.yaml', '--json', '--seed', '9']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout)).toMatchObject({ loop: 'incus-hpa', scenario: 'flapping', seed: 9 });
  });
});
