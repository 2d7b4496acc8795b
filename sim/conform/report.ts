// How `loopscope conform` prints its result: the first divergence as one block (where, what was
// recorded, what the model allowed instead), or what was replayed; then the property monitors.
import { formatDuration } from '../units';
import type { ConformReport } from './conform';

const PART_WORDS = { controller: 'controller', world: 'world', property: 'property' } as const;

export function formatConform(r: ConformReport): string {
  const lines: string[] = [];
  const { replayed: n } = r;
  const movesWord = `${r.envMoves.length} outside move${r.envMoves.length === 1 ? '' : 's'}`;
  if (r.divergence) {
    const d = r.divergence;
    lines.push(`${r.file}: DIVERGES from the model at frame ${d.frame} (t ${formatDuration(d.t)}, ${d.event})`);
    lines.push(`  ${PART_WORDS[d.part]}: ${d.what}`);
    lines.push(`  recorded: ${d.recorded}`);
    lines.push('  the model allows instead:');
    for (const a of d.allowed) lines.push(`    - ${a}`);
    lines.push(
      `  before it: ${n.machineEvents} machine events replayed alike; the world allowed ${n.observations} observations and ${n.acts} acts, with ${movesWord}`,
    );
  } else {
    lines.push(`${r.file}: conforms to the model (incus-hpa, policy ${r.policy}, ${r.frames} frames)`);
    lines.push(
      `  controller: ${n.machineEvents} machine events replayed — the same states and decisions${n.configEdits ? `, ${n.configEdits} config edit(s)` : ''}${n.earlyPeriods ? `; ${n.earlyPeriods} wait(s) ended early by a lifecycle wake-up` : ''}`,
    );
    lines.push(
      `  world: ${n.observations} observations and ${n.acts} acts allowed by the simulated world, with ${movesWord}${r.envMoves.length ? ':' : ''}`,
    );
  }
  const shown = r.envMoves.slice(0, 20);
  if (!r.divergence) for (const m of shown) lines.push(`    ${formatDuration(m.t)} ${m.move}`);
  if (!r.divergence && r.envMoves.length > shown.length)
    lines.push(`    … ${r.envMoves.length - shown.length} more (--json lists them all)`);
  for (const note of r.notes) lines.push(`  note: ${note}`);
  lines.push(`  properties (monitors over ${r.divergence ? 'the frames before the divergence' : 'every frame'}):`);
  for (const p of r.properties) {
    const promised = p.promised ? 'promised' : 'not promised';
    if (p.result === 'not-monitored') {
      lines.push(
        `    not monitored  ${p.name} (${p.kind}${p.reached !== undefined ? `, ${p.reached ? 'reached' : 'not reached'} in this run` : ''}): ${p.why}`,
      );
    } else if (p.result === 'violated') {
      lines.push(
        `    VIOLATED       ${p.name} (${promised}) at frame ${p.violatedAt!.frame} (t ${formatDuration(p.violatedAt!.t)}): ${p.claim}`,
      );
    } else {
      lines.push(`    held           ${p.name} (${promised})`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** 0 conforms and keeps its promises · 1 a divergence or a broken promise. */
export const conformExitCode = (r: ConformReport) => (r.conforms && r.promisesKept ? 0 : 1);
