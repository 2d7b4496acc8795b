// A real-mode hpa.yaml must name its HPA: created pods carry the name as their owner key, so a file
// without it (empty, whitespace, only comments, or saved half way) would run as the default HPA
// `hpa`. Every real command that reads the config refuses it with one line, exit 2, before any
// connection: the daemon here is unreachable, so a command that got past the config would exit 1
// with a connection error instead (the control case shows it).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './in-process';

const dir = mkdtempSync(join(tmpdir(), 'loopscope-config-name-'));
const write = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

const EXPECTED = "name: expected the HPA's name (its pods are owned by it; no default), got";
const configs = {
  empty: { file: write('empty.yaml', ''), got: 'an empty file' },
  whitespace: { file: write('whitespace.yaml', '  \n\n\t\n'), got: 'an empty file' },
  comments: { file: write('comments.yaml', '# hpa.yaml\n# name: web\n'), got: 'an empty file' },
  'name-less': { file: write('nameless.yaml', 'HPA: { minPods: 1, maxPods: 3 }\npolicy: fixed\nnamePrefix: web-\n'), got: 'nothing' },
  'name without a value': { file: write('novalue.yaml', 'name:\nHPA: { minPods: 1, maxPods: 3 }\n'), got: 'nothing' },
};
const named = write('named.yaml', 'name: lst-never\nnamePrefix: never-\n');

/** Each command that reads --config; the daemon it would reach is unreachable. */
const commands: [string, string[]][] = [
  ['real --once', ['real', '--once']],
  ['real --once --dry-run', ['real', '--once', '--dry-run']],
  ['real (continuous)', ['real']],
  ['real status', ['real', 'status']],
  ['real rename', ['real', 'rename', '--to', 'other']],
  ['real load', ['real', 'load', '--demand', '0']],
  ['real systemd-unit', ['real', 'systemd-unit']],
];

let saved: string | undefined;
beforeAll(() => {
  saved = process.env.INCUS_SOCKET;
  process.env.INCUS_SOCKET = join(dir, 'no-daemon.socket');
});
afterAll(() => {
  if (saved === undefined) delete process.env.INCUS_SOCKET;
  else process.env.INCUS_SOCKET = saved;
});

describe('real mode refuses a config that does not name its HPA', () => {
  for (const [label, { file, got }] of Object.entries(configs)) {
    it.each(commands)(`${label} config: %s exits 2 with one line, nothing contacted`, async (_name, args) => {
      const r = await runInProcess([...args, '--config', file]);
      expect(r.stderr.trim().split('\n')).toEqual([`loopscope: ${file}: ${EXPECTED} ${got}`]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    });
  }

  it('an unreachable https remote is not contacted either', async () => {
    const r = await runInProcess(['real', '--once', '--config', configs.empty.file, '--remote', 'https://127.0.0.1:1']);
    expect(r.stderr.trim().split('\n')).toEqual([`loopscope: ${configs.empty.file}: ${EXPECTED} an empty file`]);
    expect(r.code).toBe(2);
  });

  it('the control: a named config gets past the config and fails on the unreachable daemon (exit 1)', async () => {
    for (const args of [
      ['real', '--once', '--dry-run'],
      ['real', 'status'],
    ]) {
      const r = await runInProcess([...args, '--config', named]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('no-daemon.socket');
    }
  });

  it('a name of the wrong type says what it got', async () => {
    const file = write('number.yaml', 'name: 5\n');
    const r = await runInProcess(['real', 'systemd-unit', '--config', file]);
    expect(r.stderr.trim()).toBe(`loopscope: ${file}: ${EXPECTED} a number`);
    expect(r.code).toBe(2);
  });
});
