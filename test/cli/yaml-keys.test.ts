// A YAML mapping key that is a collection (`? [a, b]\n: 1`) has no place in plain data: the yaml
// library would stringify it and print a Node warning on stderr first. It is refused as one line
// naming the file and line, with no warning.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseYamlText } from '../../sim/scenario/load-text';

const ROOT = resolve(import.meta.dirname, '../..');

describe('YAML keys that are not text', () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => {
    warnings.push(w);
  };
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });

  it.each([
    ['a list', '? [a, b]\n: 1\n', 1, 'a list'],
    ['a nested mapping', 'loop: incus-hpa\nconfig:\n  ? { x: 1 }\n  : 2\n', 3, 'a mapping'],
    ['an alias to a list', 'a: &x [1]\n*x : 2\n', 2, 'a list'],
    ['binary data', '? !!binary AAAA\n: 1\n', 1, 'binary data'],
  ])('%s as a key: one InputError naming the line, no warning', async (_label, text, line, got) => {
    expect(() => parseYamlText('k.yaml', text)).toThrow(`k.yaml: line ${line}: expected a mapping key of plain text, got ${got} as a key`);
    await new Promise((r) => setImmediate(r)); // process.emitWarning emits on the next tick
    expect(warnings.map((w) => w.message)).toEqual([]);
  });

  it('text, numbers, booleans, null and an alias to text stay keys', () => {
    expect(parseYamlText('k.yaml', '1: a\ntrue: b\n~: c\n&k name: d\n*k : e\n')).toEqual({ 1: 'a', true: 'b', '': 'c', name: 'e' });
  });

  it('the command line: exit 2, exactly one line on stderr', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'loopscope-yaml-keys-')), 'k.yaml');
    writeFileSync(file, '? [a, b]\n: 1\n');
    const r = spawnSync(join(ROOT, 'cli/loopscope'), ['sim', file], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).toBe(`loopscope: ${file}: line 1: expected a mapping key of plain text, got a list as a key\n`);
    expect(r.status).toBe(2);
  }, 150_000);
});
