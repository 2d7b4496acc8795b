import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchNode } from './expander';
import type { FrontierLevel } from './frontier';

/** Records buffered before one write (and read back per read): 3 int32 each. */
const RECORDS = 1 << 16;
let files = 0;

/**
 * A BFS level whose lazy records — (parent, order among its successors, id), as LazyLevel keeps
 * them in memory (frontier.ts) — go to an append-only file in `dir` and are read back in order:
 * TLC's disk state queue, for a loop whose states are re-derived rather than serialised. What
 * stays in memory: the states kept whole (the level's first ones, as LazyLevel keeps them) and
 * the parents (the states of the level being expanded that have children here), one reference
 * each. The file is deleted once the level is taken (or dispose()d).
 */
export class SpilledLevel<W, C> implements FrontierLevel<W, C> {
  private readonly whole: (SearchNode<W, C> | undefined)[] = [];
  private readonly parents: (SearchNode<W, C> | undefined)[] = [];
  private readonly buffer = new Int32Array(RECORDS * 3);
  private buffered = 0;
  private written = 0;
  private count = 0;
  private readonly file: string;
  private fd: number | undefined;
  /** Reading: the records of buffer[0 … loaded) start at record `loadedFrom`. */
  private reading = false;
  private loadedFrom = 0;
  private loaded = 0;

  constructor(dir: string) {
    this.file = join(dir, `level-${process.pid}-${files++}.bin`);
  }

  get length(): number {
    return this.count;
  }

  push(parent: SearchNode<W, C>, order: number, id: number): void {
    if (this.reading) throw new Error('explorer: a spilled level grown while it is taken');
    if (this.parents.at(-1) !== parent) this.parents.push(parent);
    const o = this.buffered * 3;
    this.buffer[o] = this.parents.length - 1;
    this.buffer[o + 1] = order;
    this.buffer[o + 2] = id;
    this.count++;
    if (++this.buffered === RECORDS) this.flush();
  }

  pushWhole(node: SearchNode<W, C>): void {
    // Whole states come first in a level (explorer.ts keeps the first ones whole), records after them.
    if (this.count !== this.whole.length) throw new Error('explorer: a whole state after spilled ones');
    this.whole.push(node);
    this.count++;
  }

  take(i: number, derive: (parent: SearchNode<W, C>, order: number) => Omit<SearchNode<W, C>, 'id'>): SearchNode<W, C> {
    if (i < this.whole.length) {
      const kept = this.whole[i];
      if (!kept) throw new Error('explorer: a spilled level state taken twice');
      this.whole[i] = undefined;
      return kept;
    }
    const r = i - this.whole.length;
    if (!this.reading) {
      this.flush();
      this.reading = true;
      this.loaded = 0;
      this.loadedFrom = 0;
    }
    if (r < this.loadedFrom || r >= this.loadedFrom + this.loaded) this.load(r);
    const o = (r - this.loadedFrom) * 3;
    const p = this.buffer[o]!;
    const parent = this.parents[p];
    if (!parent) throw new Error('explorer: a spilled frontier state taken twice or out of order');
    const node = { id: this.buffer[o + 2]!, ...derive(parent, this.buffer[o + 1]!) };
    // Children of one parent are consecutive: after its last one the parent is let go.
    const nextParent = r + 1 >= this.written ? -1 : r + 1 < this.loadedFrom + this.loaded ? this.buffer[o + 3]! : this.peekParent(r + 1);
    if (nextParent !== p) this.parents[p] = undefined;
    if (i === this.count - 1) this.dispose();
    return node;
  }

  /** Deletes the file (a level abandoned, or taken to its end). */
  dispose(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
    rmSync(this.file, { force: true });
  }

  private open(): number {
    this.fd ??= openSync(this.file, 'w+');
    return this.fd;
  }

  private flush(): void {
    if (this.buffered === 0) return;
    const bytes = new Uint8Array(this.buffer.buffer, 0, this.buffered * 12);
    const fd = this.open();
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at, this.written * 12 + at);
    this.written += this.buffered;
    this.buffered = 0;
  }

  /** Reads the records from `r` on into the buffer. */
  private load(r: number): void {
    const n = Math.min(RECORDS, this.written - r);
    const bytes = new Uint8Array(this.buffer.buffer, 0, n * 12);
    const fd = this.open();
    for (let at = 0; at < bytes.length;) {
      const got = readSync(fd, bytes, at, bytes.length - at, r * 12 + at);
      if (got === 0) throw new Error(`explorer: spilled level ${this.file} ends early`);
      at += got;
    }
    this.loadedFrom = r;
    this.loaded = n;
  }

  /** The parent index of record r, read from the file (the one record past the buffer's end). */
  private peekParent(r: number): number {
    const one = new Int32Array(1);
    readSync(this.open(), new Uint8Array(one.buffer), 0, 4, r * 12);
    return one[0]!;
  }
}
