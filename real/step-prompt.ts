// --step on a terminal: before each act, show what the loop observed, how it compared and
// what it is about to do, and ask. The runner only sees an ApproveAct function, so another
// front end (the web lab's live mode) can approve the same way.
import { createInterface, type Interface } from 'node:readline';
import type { HpaContext } from '../machines/incus-hpa';
import { formatBytes } from '../sim/units';
import type { ActRequest, ApproveAct, ActVerdict } from './hpa-actors';

/** The text shown before an act: observation, comparison, planned action. */
export function describeAct(request: ActRequest, context: HpaContext | undefined): string {
  const lines = ['── planned action ──'];
  const obs = context?.observation;
  lines.push(`observed: ${obs ? `${obs.instances.length} owned pod(s)` : 'nothing yet'}`);
  for (const i of obs?.instances ?? []) {
    const pct = i.memoryTotal > 0 ? `${Math.floor((i.memoryUsage * 100) / i.memoryTotal)}%` : '-';
    lines.push(
      `  ${i.name.padEnd(20)} ${i.status.padEnd(8)} ${formatBytes(i.memoryUsage)} / ${i.memoryTotal ? formatBytes(i.memoryTotal) : '?'}  ${pct}`,
    );
  }
  if (context?.decision) {
    lines.push(`compare:  ${context.decision.comparison}`);
    lines.push(`verdict:  ${context.decision.verdict}`);
  }
  lines.push(
    `next:     ${request.kind} ${request.name}${request.kind === 'delete' ? (request.waitForStop ? ' (stop, wait, delete)' : ' (forced stop, wait, delete)') : ''}`,
  );
  return lines.join('\n');
}

/**
 * Asks on the terminal; "q" skips this act and calls onQuit so the runner stops.
 * Lines typed while no question is open are dropped: type-ahead must never approve an act
 * the operator has not seen.
 */
export function ttyApprover(
  context: () => HpaContext | undefined,
  onQuit: () => void,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): ApproveAct & { close: () => void } {
  let waiting: ((line: string) => void) | undefined;
  // Read from the start, so input that arrives before a question is consumed and dropped.
  const rl: Interface = createInterface({ input, terminal: false }).on('line', (line) => {
    const w = waiting;
    waiting = undefined;
    w?.(line);
  });
  const nextLine = () =>
    new Promise<string>((resolve) => {
      waiting = resolve;
    });
  const ask = async (request: ActRequest): Promise<ActVerdict> => {
    output.write(`${describeAct(request, context())}\n`);
    for (;;) {
      output.write('approve? [y]es / [s]kip / [q]uit: ');
      const answer = (await nextLine()).trim().toLowerCase();
      if (answer === 'y' || answer === 'yes') return 'approve';
      if (answer === 's' || answer === 'skip' || answer === 'n' || answer === 'no') return 'skip';
      if (answer === 'q' || answer === 'quit') {
        onQuit();
        return 'skip';
      }
    }
  };
  return Object.assign(ask, { close: () => rl.close() });
}
