/** The slots of a visited set: a hash's two halves and its id, one entry each (see VisitedSet). */
export interface VisitedTables {
  hi: Uint32Array;
  lo: Uint32Array;
  ids: Int32Array;
}

/**
 * The explorer's visited set: 64-bit state hashes → state ids, in one open-addressing table of
 * typed arrays (12 bytes a slot, load ≤ 1/2: ~24 bytes a state) instead of a Map of strings
 * (~80 bytes a state plus garbage). Hash 0:0 is remapped, as 0:0 marks an empty slot.
 *
 * A shared set (VisitedSet.shared) keeps its slots in SharedArrayBuffers, so the parallel search's
 * workers read the table the main thread writes (VisitedSet.reader) without a copy.
 */
export class VisitedSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private ids: Int32Array;
  private mask: number;
  size = 0;

  constructor(
    capacity = 1 << 14,
    /** Slots in SharedArrayBuffers (grown into new ones: the readers need the new tables() then). */
    readonly isShared = false,
  ) {
    let n = 1 << 4;
    while (n < capacity * 2) n <<= 1;
    this.hi = new Uint32Array(this.buffer(n));
    this.lo = new Uint32Array(this.buffer(n));
    this.ids = new Int32Array(this.buffer(n));
    this.mask = n - 1;
  }

  /** An empty shared set, or a shared copy of `from` (the same slots, so the same probes). */
  static shared(from?: VisitedSet): VisitedSet {
    if (!from) return new VisitedSet(undefined, true);
    const v = new VisitedSet(1, true);
    const n = from.hi.length;
    v.hi = new Uint32Array(v.buffer(n));
    v.lo = new Uint32Array(v.buffer(n));
    v.ids = new Int32Array(v.buffer(n));
    v.hi.set(from.hi);
    v.lo.set(from.lo);
    v.ids.set(from.ids);
    v.mask = n - 1;
    v.size = from.size;
    return v;
  }

  /** The id stored for this hash, or -1. */
  get(h: number, l: number): number {
    if (h === 0 && l === 0) l = 1;
    for (let i = this.slot(h, l); ; i = (i + 1) & this.mask) {
      if (this.hi[i] === h && this.lo[i] === l) return this.ids[i]!;
      if (this.hi[i] === 0 && this.lo[i] === 0) return -1;
    }
  }

  /** Stores a hash not yet present. */
  add(h: number, l: number, id: number): void {
    if (h === 0 && l === 0) l = 1;
    if ((this.size + 1) * 2 > this.hi.length) this.grow();
    this.put(h, l, id);
    this.size++;
  }

  bytes(): number {
    return this.hi.byteLength + this.lo.byteLength + this.ids.byteLength;
  }

  /** The table as it is (views, for a checkpoint: checkpoint.ts, or a shared set's readers). */
  tables(): VisitedTables {
    return { hi: this.hi, lo: this.lo, ids: this.ids };
  }

  /** Back from a checkpoint: the same slots, so the same probes. */
  static of(t: VisitedTables, size: number): VisitedSet {
    if (t.hi.length !== t.lo.length || t.hi.length !== t.ids.length || (t.hi.length & (t.hi.length - 1)) !== 0)
      throw new Error('visited set: a checkpoint with tables of unequal or non-power-of-two sizes');
    const v = new VisitedSet(1);
    v.hi = t.hi;
    v.lo = t.lo;
    v.ids = t.ids;
    v.mask = t.hi.length - 1;
    v.size = size;
    return v;
  }

  /**
   * Lookups in another thread's shared set, on its tables() as posted (the memory itself, not a
   * copy). Read only: the owner writes only while no reader reads (parallel.ts says when).
   */
  static reader(t: VisitedTables): Pick<VisitedSet, 'get'> {
    return VisitedSet.of(t, 0);
  }

  private buffer(slots: number): ArrayBuffer | SharedArrayBuffer {
    return this.isShared ? new SharedArrayBuffer(slots * 4) : new ArrayBuffer(slots * 4);
  }

  private slot(h: number, l: number): number {
    return (Math.imul(h ^ (l >>> 7), 0x9e3779b1) >>> 0) & this.mask;
  }

  private put(h: number, l: number, id: number): void {
    let i = this.slot(h, l);
    while (this.hi[i] !== 0 || this.lo[i] !== 0) i = (i + 1) & this.mask;
    this.hi[i] = h;
    this.lo[i] = l;
    this.ids[i] = id;
  }

  private grow(): void {
    const { hi, lo, ids } = this;
    const n = hi.length * 2;
    this.hi = new Uint32Array(this.buffer(n));
    this.lo = new Uint32Array(this.buffer(n));
    this.ids = new Int32Array(this.buffer(n));
    this.mask = n - 1;
    for (let i = 0; i < hi.length; i++) if (hi[i] !== 0 || lo[i] !== 0) this.put(hi[i]!, lo[i]!, ids[i]!);
  }
}
