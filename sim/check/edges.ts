import { IntColumn } from './columns';

/**
 * Every edge of the explored state graph, kept only when a liveness property is asked for (a
 * lasso needs the cycle, not just the BFS tree): compressed rows (CSR) in typed arrays, 8 bytes an
 * edge (target and move) plus 4 a state. Both searches hand edges over grouped by source in
 * increasing id order (the order states are expanded in), so rows are appended, never inserted.
 */
export class EdgeList {
  private start = new IntColumn();
  private to = new IntColumn();
  private via = new IntColumn();
  private count = 0;
  /** Rows opened so far: states 0 … rows − 1 have their edges (possibly none). */
  private rows = 0;

  /** An edge from → to taken by `via` (TICK or an environment move's index); `from` never decreases. */
  add(from: number, to: number, via: number): void {
    if (from < this.rows - 1) throw new Error(`edges: state ${from} after state ${this.rows - 1} (edges must come grouped by source)`);
    while (this.rows <= from) this.start.set(this.rows++, this.count);
    this.to.set(this.count, to);
    this.via.set(this.count, via);
    this.count++;
  }

  /** Closes the rows up to n states (the unexpanded ones have no edges); call before reading. */
  close(n: number): void {
    while (this.rows <= n) this.start.set(this.rows++, this.count);
  }

  first(id: number): number {
    return this.start.get(id);
  }
  end(id: number): number {
    return this.start.get(id + 1);
  }
  target(e: number): number {
    return this.to.get(e);
  }
  move(e: number): number {
    return this.via.get(e);
  }
  get size(): number {
    return this.count;
  }
  bytes(): number {
    return this.start.bytes() + this.to.bytes() + this.via.bytes();
  }

  /** The rows and edges so far (views, for a checkpoint: checkpoint.ts). */
  tables(): { start: Int32Array; to: Int32Array; via: Int32Array } {
    return { start: this.start.head(this.rows), to: this.to.head(this.count), via: this.via.head(this.count) };
  }

  static of(t: { start: Int32Array; to: Int32Array; via: Int32Array }): EdgeList {
    const e = new EdgeList();
    e.start = IntColumn.of(t.start);
    e.to = IntColumn.of(t.to);
    e.via = IntColumn.of(t.via);
    e.rows = t.start.length;
    e.count = t.to.length;
    return e;
  }
}
