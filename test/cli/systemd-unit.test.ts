// `loopscope real systemd-unit`: the unit systemd itself reads back (systemd-analyze verify, from
// Debian's systemd package: it needs no running systemd), with % and $ escaped as systemd.unit(5)
// "Specifiers" and systemd.service(5) "Command lines" say, and exit 2 (bad input) never restarted.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execWord, systemdUnit } from '../../real/systemd-unit';
import { requires } from '../prerequisites';
import { runInProcess } from './in-process';

const withAnalyze = await requires('systemd-analyze');

const dir = mkdtempSync(join(tmpdir(), 'loopscope-unit-'));
// %z is no systemd specifier (verify fails on it unescaped); $HOME would be substituted; the quote and space need quoting.
const odd = join(dir, 'in %z $HOME "q"');
mkdirSync(odd, { recursive: true });
const config = join(odd, 'h%p$a.yaml');
writeFileSync(config, 'HPA: { minPods: 1, maxPods: 2 }\nname: unit-test\nnamePrefix: unit-\n');

function verify(unit: string): { status: number | null; stderr: string } {
  const file = join(dir, `loopscope-${Math.random().toString(36).slice(2)}.service`);
  writeFileSync(file, unit);
  const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('real systemd-unit', () => {
  it('escapes % as %% and $ as $$, and quotes words with spaces or quotes', () => {
    expect(execWord('/a/b.yaml')).toBe('/a/b.yaml');
    expect(execWord('/a%b')).toBe('"/a%%b"');
    expect(execWord('/a $HOME "x"')).toBe('"/a $$HOME \\"x\\""');
    expect(execWord('back\\slash')).toBe('"back\\\\slash"');
  });

  withAnalyze.it('prints a unit that systemd-analyze verify accepts, with the odd path escaped', async () => {
    const r = await runInProcess(['real', 'systemd-unit', '--config', config, '--project', 'default']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const exec = r.stdout.split('\n').find((l) => l.startsWith('ExecStart='));
    expect(exec).toBe(
      `ExecStart=${join(process.cwd(), 'cli/loopscope')} real --config "${join(dir, 'in %%z $$HOME \\"q\\"', 'h%%p$$a.yaml')}" --project default --once`,
    );
    expect(r.stdout).toMatch(/^RestartPreventExitStatus=2$/m);
    expect(r.stdout).toMatch(/^Restart=always$/m);
    const v = verify(r.stdout);
    expect(v.stderr).not.toMatch(/specifier|Invalid|bad unit/i);
    expect(v.status).toBe(0);
  });

  withAnalyze.it('the same path unescaped is refused by systemd (the check can fail)', () => {
    const unescaped = systemdUnit({ command: [join(process.cwd(), 'cli/loopscope')], config, restartSec: 10 }).replaceAll('%%', '%');
    const v = verify(unescaped);
    expect(v.status).not.toBe(0);
    expect(v.stderr).toMatch(/Failed to resolve unit specifiers/);
  });

  withAnalyze.it('continuous mode verifies too (Restart=on-failure, exit 2 still not restarted)', async () => {
    const r = await runInProcess(['real', 'systemd-unit', '--config', config, '--continuous', '--restart-sec', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Restart=on-failure$/m);
    expect(r.stdout).toMatch(/^RestartPreventExitStatus=2$/m);
    expect(verify(r.stdout).status).toBe(0);
  });

  it('refuses control characters and absurd --restart-sec with exit 2', async () => {
    const nl = await runInProcess(['real', 'systemd-unit', '--config', config, '--remote', 'a\nExecStartPre=/bin/false']);
    expect(nl.code).toBe(2);
    expect(nl.stderr).toMatch(/^loopscope: --remote: expected no control characters/);
    const big = await runInProcess(['real', 'systemd-unit', '--config', config, '--restart-sec', '1'.repeat(40)]);
    expect(big.code).toBe(2);
    expect(big.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});
