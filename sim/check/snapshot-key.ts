import type { AnyMachineSnapshot, StateValue } from 'xstate';
import type { KeyWriter } from './key-writer';
import { HashKeyWriter } from './key-writer';

/**
 * The machine's part of every loop's canonical key: its state value (a name, or the regions of a
 * compound state, in the machine's order as JSON.stringify would write them) and the ids of the
 * actors it has invoked. Written field by field: no JSON text per state.
 */
export function writeSnapshot(snapshot: AnyMachineSnapshot, key: KeyWriter): void {
  writeValue(snapshot.value, key);
  const children = snapshot.children;
  let n = 0;
  for (const _ in children) n++;
  key.list(n);
  for (const id in children) key.str(id);
}

function writeValue(value: StateValue | undefined, key: KeyWriter): void {
  if (typeof value === 'string') return key.str(value);
  if (value === undefined) return key.num(Number.NaN);
  let n = 0;
  for (const k in value) if (value[k] !== undefined) n++;
  key.list(n);
  for (const k in value) {
    const v = value[k];
    if (v === undefined) continue;
    key.str(k);
    writeValue(v, key);
  }
}

/**
 * Large objects that rarely change (a configuration, a unit file, a program), written as a 64-bit
 * digest of their JSON, computed once per object: a function of the content alone, so two workers or
 * a resumed search write the same words for equal objects.
 */
export class ContentDigests {
  private readonly digests = new WeakMap<object, Uint32Array>();
  private readonly writer = new HashKeyWriter();

  write(o: object, key: KeyWriter): void {
    let d = this.digests.get(o);
    if (d === undefined) {
      d = new Uint32Array(2);
      this.writer.reset();
      this.writer.str(JSON.stringify(o));
      this.writer.digest(d);
      this.digests.set(o, d);
    }
    key.num(d[0]!);
    key.num(d[1]!);
  }
}
