import type { Progress } from '../sim/check/model';

const MiB = 1024 ** 2;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** One progress line: states, states/s, frontier, memory (and an ETA when the state bound is the limit). */
export function progressLine(p: Progress): string {
  const rate = p.distinct / Math.max(p.elapsedMs / 1000, 1e-3);
  const eta =
    p.maxStates !== undefined && rate > 0 ? `, ETA ≤ ${Math.ceil((p.maxStates - p.distinct) / rate)}s (bound ${fmt(p.maxStates)})` : '';
  return `check: ${fmt(p.distinct)} states (${fmt(p.generated)} generated), ${fmt(rate)} states/s, depth ${p.depth}, frontier ${fmt(p.frontier)}, rss ${fmt(p.rssBytes / MiB)} MiB, ${(p.elapsedMs / 1000).toFixed(0)}s${eta}`;
}

/**
 * Progress on stderr for a search that takes a while: on a terminal, after 2 s, one line rewritten
 * in place every second; elsewhere (CI logs, pipes) a line every 30 s from 30 s on, so quick
 * checks keep stderr empty.
 */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): { onProgress: (p: Progress) => void; done: () => void } {
  let shown = false;
  let lastLine = 0;
  return {
    onProgress: (p) => {
      if (stream.isTTY) {
        if (p.elapsedMs < 2000) return;
        stream.write(`\r${progressLine(p)}\x1b[K`);
        shown = true;
        return;
      }
      if (p.elapsedMs < 30_000 || p.elapsedMs - lastLine < 30_000) return;
      lastLine = p.elapsedMs;
      stream.write(`${progressLine(p)}\n`);
    },
    done: () => {
      if (shown) stream.write('\n');
      shown = false;
    },
  };
}
