import { readFileSync } from 'node:fs';
import type { CheckOptions } from '../sim/check/check';
import { checkpointIdentity, checkpointPath, checkpointSummary, hasCheckpoint } from '../sim/check/checkpoint';
import type { CheckpointOptions } from '../sim/check/model';
import { parseDuration } from '../sim/units';
import { UsageError } from './usage';

/** TLC checkpoints every 30 minutes by default; a search here is shorter, and a checkpoint of 10⁷ states writes ~0.6 GB. */
const DEFAULT_EVERY = '5m';

export interface DiskFlags {
  checkpoint?: string;
  checkpointEvery?: string;
  spill?: string;
  table?: boolean;
}

/**
 * `check --checkpoint DIR` / `--spill DIR`: the sequential search only (one thread), one
 * configuration (no --table). A DIR holding a checkpoint is resumed — only by the same search: the
 * scenario file's bytes and the options that change states or verdicts (checkpointIdentity).
 */
export function diskOptions(
  flags: DiskFlags,
  file: string,
  asked: number | undefined,
  search: Pick<CheckOptions, 'policy' | 'withinPeriods' | 'maxDepth' | 'maxStates' | 'symmetry'>,
  outputDir: (option: string, dir: string | undefined) => string | undefined,
): { options: Pick<CheckOptions, 'spillDir' | 'checkpoint'>; oneThread?: string; resumed?: string } {
  if (flags.checkpointEvery !== undefined && flags.checkpoint === undefined)
    throw new UsageError('--checkpoint-every', 'applies to --checkpoint: add --checkpoint <dir>');
  if (flags.checkpoint === undefined && flags.spill === undefined) return { options: {} };
  const option = flags.checkpoint !== undefined ? '--checkpoint' : '--spill';
  if (flags.table) throw new UsageError(option, 'searches one configuration: leave out --table');
  if (asked !== undefined && asked > 1)
    throw new UsageError('--workers', `${option} is not supported by the parallel search: leave out --workers or give 1`);
  const everyMs = parseDuration(flags.checkpointEvery ?? DEFAULT_EVERY);
  if (everyMs === null || everyMs < 0)
    throw new UsageError(
      '--checkpoint-every',
      `expected a duration such as 30s or 5m (0s: at every BFS level), got "${flags.checkpointEvery}"`,
    );
  const spillDir = outputDir('--spill', flags.spill);
  let checkpoint: CheckpointOptions | undefined;
  let resumed: string | undefined;
  const dir = outputDir('--checkpoint', flags.checkpoint);
  if (dir !== undefined) {
    const identity = checkpointIdentity(readFileSync(file, 'utf8'), { ...search, symmetry: search.symmetry ?? true });
    if (hasCheckpoint(dir)) {
      let held: ReturnType<typeof checkpointSummary>;
      try {
        held = checkpointSummary(dir);
      } catch (e) {
        throw new UsageError(
          '--checkpoint',
          `expected a loopscope checkpoint in ${checkpointPath(dir)}: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      if (held.identity !== identity)
        throw new UsageError(
          '--checkpoint',
          `${checkpointPath(dir)} is a checkpoint of another scenario or other options (policy, --within, --depth, --max-states, --no-symmetry): use another directory`,
        );
      resumed = `resumed from level ${held.depth}, ${held.distinct} states (${checkpointPath(dir)})`;
    }
    checkpoint = { dir, identity, everyMs };
  }
  return {
    options: { ...(spillDir !== undefined ? { spillDir } : {}), ...(checkpoint ? { checkpoint } : {}) },
    ...(asked === undefined ? { oneThread: `workers: 1 (${option} searches in one thread)` } : {}),
    ...(resumed ? { resumed } : {}),
  };
}
