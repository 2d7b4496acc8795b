import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { BookTables } from './search-book';

/**
 * A checkpoint of the sequential search at a BFS level boundary (TLC's -checkpoint/-recover, in
 * one file): the search book's typed arrays (visited fingerprints, parents, moves, quiet
 * successors, property bits, edges) and where the level about to be expanded starts. The level's
 * states are not written: they are the ids from `frontierFrom` to the last one (BFS numbers a
 * level's states consecutively), and a resumed search re-derives them from their (parent, move)
 * records (explorer.ts), as counterexamples are. Written to a temporary file then renamed, so a
 * kill at any instant leaves the previous checkpoint or the new one, never half of one.
 */
export const CHECKPOINT_FILE = 'checkpoint.lsc';
const MAGIC = 'LSCKPT01';
// 2: states hashed from the fields a loop writes (key-writer.ts), not from key text: a version 1 table holds other hashes.
const FORMAT_VERSION = 2;
/** writeSync/readSync take at most 2 GiB a call. */
const CHUNK = 1 << 30;

type Section = { name: string; type: 'u32' | 'i32' | 'u8'; length: number };

interface Header {
  version: number;
  /** What was searched: checkpointIdentity(). A checkpoint is resumed only by the same search. */
  identity: string;
  distinct: number;
  generated: number;
  depth: number;
  frontierFrom: number;
  firstViolation: number[];
  firstWitness: number[];
  targets: number;
  edges: boolean;
  sections: Section[];
}

export interface Checkpoint {
  identity: string;
  tables: BookTables;
  frontierFrom: number;
}

/** What a checkpoint belongs to: the scenario file's bytes and every option that changes the search's states or verdicts. */
export function checkpointIdentity(scenarioText: string, options: Record<string, unknown>): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        scenario: scenarioText,
        options: Object.entries(options)
          .filter(([, v]) => v !== undefined)
          .sort(([a], [b]) => a.localeCompare(b)),
      }),
    )
    .digest('hex');
}

export const checkpointPath = (dir: string) => join(dir, CHECKPOINT_FILE);
export const hasCheckpoint = (dir: string) => existsSync(checkpointPath(dir));

function sectionsOf(t: BookTables): [Section, Uint32Array | Int32Array | Uint8Array][] {
  const s = (name: string, a: Uint32Array | Int32Array | Uint8Array): [Section, Uint32Array | Int32Array | Uint8Array] => [
    { name, type: a instanceof Uint32Array ? 'u32' : a instanceof Int32Array ? 'i32' : 'u8', length: a.length },
    a,
  ];
  return [
    s('visited.hi', t.visited.hi),
    s('visited.lo', t.visited.lo),
    s('visited.ids', t.visited.ids),
    s('parent', t.parent),
    s('move', t.move),
    s('quietNext', t.quietNext),
    s('quietDt', t.quietDt),
    ...t.targetOk.map((c, i) => s(`targetOk.${i}`, c)),
    ...(t.edges ? [s('edges.start', t.edges.start), s('edges.to', t.edges.to), s('edges.via', t.edges.via)] : []),
  ];
}

function writeAll(fd: number, a: Uint32Array | Int32Array | Uint8Array): void {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, Math.min(CHUNK, bytes.length - at));
}

function readAll(fd: number, into: Uint8Array, position: number): void {
  for (let at = 0; at < into.length;) {
    const n = readSync(fd, into, at, Math.min(CHUNK, into.length - at), position + at);
    if (n === 0) throw new Error('checkpoint: the file ends early');
    at += n;
  }
}

/** Writes the checkpoint atomically (temporary file, fsync, rename). */
export function writeCheckpoint(dir: string, identity: string, tables: BookTables, frontierFrom: number): void {
  const sections = sectionsOf(tables);
  const header: Header = {
    version: FORMAT_VERSION,
    identity,
    distinct: tables.distinct,
    generated: tables.generated,
    depth: tables.depth,
    frontierFrom,
    firstViolation: tables.firstViolation,
    firstWitness: tables.firstWitness,
    targets: tables.targetOk.length,
    edges: tables.edges !== undefined,
    sections: sections.map(([s]) => s),
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = new Uint32Array([json.length]);
  const temp = `${checkpointPath(dir)}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeAll(fd, Buffer.from(MAGIC));
    writeAll(fd, length);
    writeAll(fd, json);
    for (const [, a] of sections) writeAll(fd, a);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, checkpointPath(dir));
}

function readHeader(fd: number, file: string): { header: Header; at: number } {
  const head = new Uint8Array(12);
  readAll(fd, head, 0);
  if (Buffer.from(head.subarray(0, 8)).toString() !== MAGIC) throw new Error(`${file}: not a loopscope checkpoint`);
  const size = new DataView(head.buffer).getUint32(8, true);
  const json = new Uint8Array(size);
  readAll(fd, json, 12);
  const header = JSON.parse(Buffer.from(json).toString()) as Header; // written by writeCheckpoint, version checked next
  if (header.version !== FORMAT_VERSION) throw new Error(`${file}: checkpoint format ${header.version}, expected ${FORMAT_VERSION}`);
  return { header, at: 12 + size };
}

/** The identity, level and state count of the checkpoint in `dir` (to refuse another search's before reading it all). */
export function checkpointSummary(dir: string): { identity: string; depth: number; distinct: number } {
  const file = checkpointPath(dir);
  const fd = openSync(file, 'r');
  try {
    const { header } = readHeader(fd, file);
    return { identity: header.identity, depth: header.depth, distinct: header.distinct };
  } finally {
    closeSync(fd);
  }
}

export function readCheckpoint(dir: string): Checkpoint {
  const file = checkpointPath(dir);
  const fd = openSync(file, 'r');
  try {
    const { header, at: start } = readHeader(fd, file);
    let at = start;
    const arrays = new Map<string, Uint32Array | Int32Array | Uint8Array>();
    for (const s of header.sections) {
      const a = s.type === 'u32' ? new Uint32Array(s.length) : s.type === 'i32' ? new Int32Array(s.length) : new Uint8Array(s.length);
      readAll(fd, new Uint8Array(a.buffer), at);
      at += a.byteLength;
      arrays.set(s.name, a);
    }
    const u32 = (name: string) => {
      const a = arrays.get(name);
      if (!(a instanceof Uint32Array)) throw new Error(`${file}: no section ${name}`);
      return a;
    };
    const i32 = (name: string) => {
      const a = arrays.get(name);
      if (!(a instanceof Int32Array)) throw new Error(`${file}: no section ${name}`);
      return a;
    };
    const u8 = (name: string) => {
      const a = arrays.get(name);
      if (!(a instanceof Uint8Array)) throw new Error(`${file}: no section ${name}`);
      return a;
    };
    const tables: BookTables = {
      distinct: header.distinct,
      generated: header.generated,
      depth: header.depth,
      firstViolation: header.firstViolation,
      firstWitness: header.firstWitness,
      visited: { hi: u32('visited.hi'), lo: u32('visited.lo'), ids: i32('visited.ids') },
      parent: i32('parent'),
      move: i32('move'),
      quietNext: i32('quietNext'),
      quietDt: i32('quietDt'),
      targetOk: Array.from({ length: header.targets }, (_, i) => u8(`targetOk.${i}`)),
      ...(header.edges ? { edges: { start: i32('edges.start'), to: i32('edges.to'), via: i32('edges.via') } } : {}),
    };
    return { identity: header.identity, tables, frontierFrom: header.frontierFrom };
  } finally {
    closeSync(fd);
  }
}
