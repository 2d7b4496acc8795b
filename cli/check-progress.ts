import type { Progress } from '../sim/check/explorer';

const MiB = 1024 ** 2;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** One progress line: states, states/s, frontier, memory (and an ETA when the state bound is the limit). */
export function progressLine(p: Progress): string {
  const rate = p.distinct / Math.max(p.elapsedMs / 1000, 1e-3);
  const eta = p.maxStates !== undefined && rate > 0 ? `, ETA ≤ ${Math.ceil((p.maxStates - p.distinct) / rate)}s (bound ${fmt(p.maxStates)})` : '';
  return `check: ${fmt(p.distinct)} states (${fmt(p.generated)} generated), ${fmt(rate)} states/s, depth ${p.depth}, frontier ${fmt(p.frontier)}, rss ${fmt(p.rssBytes / MiB)} MiB, ${(p.elapsedMs / 1000).toFixed(0)}s${eta}`;
}

/**
 * Progress on stderr for a search that takes a while: nothing for the first 2 s; then, on a
 * terminal, one line rewritten in place every second, elsewhere (CI logs) a line every 10 s.
 */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): { onProgress: (p: Progress) => void; done: () => void } {
  let shown = false;
  let lastLine = 0;
  return {
    onProgress: (p) => {
      if (p.elapsedMs < 2000) return;
      if (stream.isTTY) { stream.write(`\r${progressLine(p)}\x1b[K`); shown = true; return; }
      if (p.elapsedMs - lastLine < 10_000 && lastLine > 0) return;
      lastLine = p.elapsedMs;
      stream.write(`${progressLine(p)}\n`);
    },
    done: () => { if (shown) stream.write('\n'); shown = false; },
  };
}
