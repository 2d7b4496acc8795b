/** What the report says of one property's counterexample (a shard's or a merge's). */
export interface ReportedViolation {
  property: string;
  kind: 'always' | 'eventually';
  promised: boolean;
  length: number;
  foundLength: number;
  seed: number;
  strategy: string;
  seeds: number;
  traceFile?: string;
}

/** `swarm`'s and `swarm merge`'s exit codes, as check's: only a promised property fails the run. */
export const SWARM_EXIT = { holds: 0, violated: 1, badInput: 2, interrupted: 130 } as const;

export const swarmExitCode = (violations: readonly ReportedViolation[]) =>
  violations.some((v) => v.promised) ? SWARM_EXIT.violated : SWARM_EXIT.holds;

/** The violations found and the result line, after a header the caller gives. */
export function formatSwarmReport(
  header: readonly string[],
  violations: readonly ReportedViolation[],
  judged: readonly string[],
  scenarioFile: string,
): string {
  const lines = [...header, ''];
  for (const v of violations) {
    lines.push(
      `✗ ${v.kind.padEnd(10)} ${v.property.padEnd(24)} ${v.length} steps (found at ${v.foundLength}, shrunk) · seed ${v.seed} (${v.strategy}); ${v.seeds} seed${v.seeds === 1 ? '' : 's'} found it (${v.promised ? 'promised' : 'not promised'})`,
    );
    if (v.traceFile) lines.push(`  trace: ${v.traceFile} (loopscope lab opens it)`);
    lines.push(`  again: loopscope swarm ${scenarioFile} --seeds ${v.seed}..${v.seed} --strategy ${v.strategy}`);
  }
  const quiet = judged.filter((name) => !violations.some((v) => v.property === name));
  if (quiet.length) lines.push(`· not violated by any seed (not a proof: swarm samples): ${quiet.join(', ')}`);
  const promised = violations.filter((v) => v.promised).length;
  const code = swarmExitCode(violations);
  lines.push(
    '',
    `result: ${code === SWARM_EXIT.violated ? 'a promised property is violated' : 'no promised property violated by these seeds'} (${promised} violated, ${violations.length - promised} finding${violations.length - promised === 1 ? '' : 's'} on unpromised properties) · exit ${code}`,
  );
  return lines.join('\n') + '\n';
}
