// Which lease holders a rename may treat as gone without watching (real/rename-lease.ts): only a
// rename of this host whose process no longer runs; loops, other hosts and live processes are not.
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isDeadLocalRename, localRenamePid } from '../../real/rename-lease';

const host = hostname();

/** The pid of a process that has exited (reaped by spawnSync before it returns). */
function exitedPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  if (r.pid === undefined || r.status !== 0) throw new Error('could not run node -e 0');
  return r.pid;
}

describe('rename lease holders', () => {
  it('reads the pid of a rename of this host, and nothing else', () => {
    expect(localRenamePid(`loopscope-rename_${host}_4242_a1b2c3`)).toBe(4242);
    expect(localRenamePid('loopscope-rename_my_host_name_77_ffffff', 'my_host_name')).toBe(77);
    expect(localRenamePid(`loopscope-rename_other-host_4242_a1b2c3`, 'this-host')).toBeUndefined();
    expect(localRenamePid(`${host}_4242_a1b2c3`)).toBeUndefined(); // a loop's holder
    expect(localRenamePid('loopscope-rename_killed')).toBeUndefined();
    expect(localRenamePid(`loopscope-rename_${host}_0_a1`)).toBeUndefined();
    expect(localRenamePid('')).toBeUndefined();
  });

  it('gone only when that process no longer runs here', () => {
    const gone = exitedPid();
    expect(isDeadLocalRename(`loopscope-rename_${host}_${gone}_abcdef`)).toBe(true);
    expect(isDeadLocalRename(`loopscope-rename_${host}_${process.pid}_abcdef`)).toBe(false); // this very process
    expect(isDeadLocalRename(`loopscope-rename_${host}_${process.ppid}_abcdef`)).toBe(false); // alive
    expect(isDeadLocalRename(`loopscope-rename_elsewhere-${host}_${gone}_abcdef`)).toBe(false);
    expect(isDeadLocalRename(`${host}_${gone}_abcdef`)).toBe(false); // a loop: its lease expires as usual
  });
});
