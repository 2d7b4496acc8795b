/** The search's per-state storage as typed arrays, and the settle-time pass over quiet chains. */

/** Growable Int32 storage: one slot per distinct state (parents, moves, quiet successors). */
export class IntColumn {
  private data = new Int32Array(1 << 12);
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const next = new Int32Array(Math.max(i + 1, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v;
  }
  get(i: number): number {
    return this.data[i]!;
  }
  bytes(): number {
    return this.data.byteLength;
  }
  /** The first n slots (a view, for a checkpoint: checkpoint.ts). */
  head(n: number): Int32Array {
    return this.data.subarray(0, n);
  }
  /** Back from a checkpoint: these slots, the rest to be set as the search goes on. */
  static of(values: Int32Array): IntColumn {
    const c = new IntColumn();
    c.data = new Int32Array(Math.max(1 << 12, values.length));
    c.data.set(values);
    return c;
  }
}

/** Growable 0/1 storage: one slot per distinct state (whether an eventually-target holds). */
export class BitColumn {
  private data = new Uint8Array(1 << 12);
  set(i: number, v: boolean): void {
    if (i >= this.data.length) {
      const next = new Uint8Array(Math.max(i + 1, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[i] = v ? 1 : 0;
  }
  get(i: number): boolean {
    return this.data[i] === 1;
  }
  bytes(): number {
    return this.data.byteLength;
  }
  /** The first n slots (a view, for a checkpoint: checkpoint.ts). */
  head(n: number): Uint8Array {
    return this.data.subarray(0, n);
  }
  static of(values: Uint8Array): BitColumn {
    const c = new BitColumn();
    c.data = new Uint8Array(Math.max(1 << 12, values.length));
    c.data.set(values);
    return c;
  }
}

const UNKNOWN = -1;

/**
 * For each state, the virtual time along its quiet chain (the environment does nothing more)
 * until the target holds from then on. The quiet chains form a functional graph; each ends in a
 * cycle: a cycle where the target fails somewhere never settles (Infinity). A chain that leaves
 * the explored region gives a lower bound only (exact = false).
 */
export function settleTimes(n: number, next: IntColumn, dt: IntColumn, ok: { get(i: number): boolean }) {
  const ms = new Float64Array(n);
  const exact = new Uint8Array(n);
  const state = new Uint8Array(n); // 0 new, 1 on the current walk, 2 done
  const walk: number[] = [];
  for (let s = 0; s < n; s++) {
    if (state[s] === 2) continue;
    walk.length = 0;
    let at = s;
    let tailMs = 0;
    let tailExact = 1;
    for (;;) {
      if (at === UNKNOWN) {
        tailMs = 0;
        tailExact = 0;
        break;
      }
      if (state[at] === 2) {
        tailMs = ms[at]!;
        tailExact = exact[at]!;
        break;
      }
      if (state[at] === 1) {
        // A cycle: from `at` to the end of the walk. It settles only if the target holds all round.
        const from = walk.indexOf(at);
        const cycle = walk.splice(from);
        const allOk = cycle.every((c) => ok.get(c));
        for (const c of cycle) {
          ms[c] = allOk ? 0 : Number.POSITIVE_INFINITY;
          exact[c] = 1;
          state[c] = 2;
        }
        tailMs = ms[at]!;
        tailExact = 1;
        break;
      }
      state[at] = 1;
      walk.push(at);
      at = next.get(at);
    }
    for (let i = walk.length - 1; i >= 0; i--) {
      const c = walk[i]!;
      ms[c] = ok.get(c) && tailMs === 0 ? 0 : dt.get(c) + tailMs;
      exact[c] = tailExact;
      state[c] = 2;
      tailMs = ms[c]!;
    }
  }
  return { ms, exact };
}
