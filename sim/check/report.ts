import type { CheckRun } from './check';
import type { StopReason, VerdictStatus } from './model';
import { movesAndChoices } from './model';
import { outcomeOf } from './outcome';
import { symmetryLine } from './symmetry';
import { fingerprintLine } from './collision';

const MiB = 1024 ** 2;
const STOPPED: Record<StopReason, string> = {
  complete: 'complete',
  'max-states': 'state bound reached',
  'max-depth': 'depth bound reached',
  'max-memory': 'memory limit reached',
  interrupted: 'interrupted',
};
const mark: Record<VerdictStatus, string> = { holds: '✓', violated: '✗', unknown: '?' };

const movesLine = (moves: CheckRun['alphabet']) =>
  moves.some((m) => m.repeats)
    ? `environment moves (at any instant; each at most once, or for ever when it repeats): ${moves.map((m) => `${m.label}${m.repeats ? ' (repeats)' : ''}`).join('; ')}`
    : `environment moves (each at most once, at any instant): ${moves.map((m) => m.label).join('; ') || 'none'}`;

/** What the loop's check adds: the real system's chance outcomes, each taken every way, every time it arises. */
const choicesLine = (choices: CheckRun['alphabet']) =>
  choices.length ? [`environment choices (every one, whenever it arises): ${choices.map((m) => m.label).join('; ')}`] : [];

/** The verdicts and the search statistics, as `loopscope check` prints them. */
export function formatReport(run: CheckRun, workersLine?: string): string {
  const s = run.result.stats;
  const { moves, choices } = movesAndChoices(run.alphabet);
  const lines = [
    `# check ${run.scenario.name}${run.policy ? ` · policy ${run.policy}` : ''}`,
    movesLine(moves),
    ...choicesLine(choices),
    `states: ${s.generated} generated, ${s.distinct} distinct, depth ${s.depth}${s.complete ? ' (complete)' : ` (${STOPPED[s.stopped]}: verdicts hold up to it)`}`,
    ...(s.fingerprint ? [fingerprintLine(s.fingerprint)] : []),
    symmetryLine(s),
    `time: ${(s.timeMs / 1000).toFixed(2)}s, ${Math.round(s.distinctPerSecond)} distinct states/s, peak rss ${Math.round(s.peakRssBytes / MiB)} MiB, peak heap ${Math.round(s.peakHeapBytes / MiB)} MiB, ${Math.round(s.peakRssBytes / Math.max(s.distinct, 1))} bytes/state (rss), search tables ${Math.round(s.tableBytes / Math.max(s.distinct, 1))} bytes/state`,
    ...(workersLine ? [workersLine] : []),
    ...(s.handedOverAt
      ? [
          `hand-over: this thread searched ${s.handedOverAt.distinct} states to level ${s.handedOverAt.depth} while the workers booted; they went on from there`,
        ]
      : []),
    '',
  ];
  for (const v of run.result.verdicts) {
    const promised = run.promises.includes(v.property.name) ? 'promised' : 'not promised';
    lines.push(`${mark[v.status]} ${v.property.kind.padEnd(10)} ${v.property.name.padEnd(24)} ${v.detail} (${promised})`);
    lines.push(`  ${v.property.claim}`);
  }
  return lines.join('\n') + '\n';
}

/** The findings table: properties down, configurations across. */
export function findingsTable(runs: CheckRun[]): string {
  const names = [...new Set(runs.flatMap((r) => r.result.verdicts.map((v) => v.property.name)))];
  const header = `| property | kind | ${runs.map((r) => r.policy ?? r.scenario.name).join(' | ')} |`;
  const rule = `|---|---|${runs.map(() => '---').join('|')}|`;
  const rows = names.map((name) => {
    const kind = runs.flatMap((r) => r.result.verdicts).find((v) => v.property.name === name)!.property.kind;
    const cells = runs.map((r) => {
      const v = r.result.verdicts.find((x) => x.property.name === name);
      if (!v) return '–';
      // A violation the configuration does not promise is a finding: it does not fail the run.
      return `${mark[v.status]}${outcomeOf(r, v) === 'finding' ? ' (not promised)' : ''}`;
    });
    return `| ${name} | ${kind} | ${cells.join(' | ')} |`;
  });
  const stats = `| states (distinct) | | ${runs.map((r) => `${r.result.stats.distinct}${r.result.stats.complete ? '' : ' (bounded)'}`).join(' | ')} |`;
  return [header, rule, ...rows, stats].join('\n') + '\n';
}
