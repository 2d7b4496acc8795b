import type { StateResource, TerraformContext, TfState } from '../../machines/terraform';
import { SCHEMAS } from '../../machines/terraform';
import type { TerraformLoopConfig } from '../loops/terraform';
import type { TerraformWorld } from '../worlds/terraform';
import type { CheckState } from '../check/model';
import type { KeyWriter } from '../check/key-writer';
import { writeData, writeRecord } from '../check/data-key';
import { opPositions, writeQueue } from '../check/queue-key';
import { ContentDigests, writeSnapshot } from '../check/snapshot-key';

type State = CheckState<TerraformWorld, TerraformLoopConfig, TerraformContext>;

/**
 * The canonical key of a terraform state for the explorer: everything the future (and the
 * claims) depend on, nothing else.
 * - Random ids (instance, VPC, subnet, security group ids drawn from the seed; lock ids) are
 *   replaced by their order of first appearance in the key: only which ones are equal matters.
 *   The generator's state is left out; a fresh id never equals an old one. Names that are ids
 *   (a bucket, a DB identifier) are kept: they come from the configuration.
 * - Serials are kept relative to the backend's: only "above the last write" is ever compared.
 * - Dropped as dead: logs for the lab (calls, locks, the applied plan), object creation times,
 *   lock metadata, error texts (only "there was an error" decides the run's result), the run
 *   counter, drift and the plan (read by notes only; its error count decides planning), op ids.
 * - The monitor's counters become "any": the claims only ask whether they are 0.
 * - The queue: times relative to now; an answer is tagged live when its actor still waits for it.
 */
export function terraformCanonicalizer(): (state: State, key: KeyWriter) => void {
  const configs = new ContentDigests();
  // The tokens random ids are written as, made once: "#0", "#1", … (strings, as in the text key this
  // replaced: a token must never equal a number written in the same place).
  const tokens: string[] = [];
  const token = (n: number) => (tokens[n] ??= `#${n}`);

  return (state: State, key: KeyWriter): void => {
    const { world: w } = state;
    const ctx = state.snapshot.context;
    const serial = w.state.serial;

    const random = new Set<string>();
    const addIds = (resources: Record<string, StateResource> | null | undefined) => {
      if (resources) for (const r of Object.values(resources)) if (SCHEMAS[r.type]?.idPrefix) random.add(r.id);
    };
    for (const o of Object.values(w.cloud)) if (SCHEMAS[o.type]?.idPrefix) random.add(o.id);
    addIds(w.state.resources);
    addIds(ctx.loaded?.resources);
    addIds(ctx.refreshed);
    addIds(ctx.progress?.state);
    addIds(ctx.toWrite?.resources);
    if (w.lock) random.add(w.lock.id);
    if (ctx.lockId) random.add(ctx.lockId);
    for (const op of w.ops) {
      if (op.kind === 'persist') {
        addIds(op.input.state.resources);
        random.add(op.input.lockId);
      }
      if (op.kind === 'unlock') random.add(op.lockId);
      if (op.kind === 'lock' && op.result.ok) random.add(String(op.result.output));
    }
    const renamed = new Map<string, number>();
    /**
     * Plain data as writeData writes it, a random id as its token: its order of first appearance in
     * the key. Only values are renamed, never member names, and every state writes its fields in
     * one order, so equal keys name equal ids alike.
     */
    const data = (v: unknown): void => {
      switch (typeof v) {
        case 'string': {
          if (!random.has(v)) return key.str(v);
          let n = renamed.get(v);
          if (n === undefined) {
            n = renamed.size;
            renamed.set(v, n);
          }
          return key.str(token(n));
        }
        case 'object':
          break;
        default:
          return writeData(v, key);
      }
      if (v === null) return writeData(v, key);
      if (Array.isArray(v)) {
        key.list(v.length);
        for (const item of v as readonly unknown[]) data(item);
        return;
      }
      writeRecord(v as Record<string, unknown>, key, data); // cast: typeof 'object', not null, not an array: a record
    };
    /** A terraform state: its serial relative to the backend's, and its resources (lineage is fixed). */
    const tf = (s: TfState | null | undefined) => {
      key.flag(Boolean(s));
      if (s) {
        key.num(s.serial - serial);
        data(s.resources);
      }
    };

    configs.write(ctx.config, key);
    key.flag(ctx.runConfig === ctx.config);
    if (ctx.runConfig !== ctx.config) configs.write(ctx.runConfig, key);
    writeSnapshot(state.snapshot, key);

    data(ctx.lockId);
    tf(ctx.loaded);
    data(ctx.refreshed);
    key.num(ctx.plan ? ctx.plan.errors.length : Number.NaN);
    const progress = ctx.progress;
    key.flag(progress !== null);
    if (progress) {
      data(progress.ops);
      data(progress.done);
      data(progress.failed);
      data(progress.state);
      key.num(progress.errors.length);
    }
    data(ctx.current);
    tf(ctx.toWrite);
    key.flag(ctx.lastError !== null);

    let objects = 0;
    for (const _ in w.cloud) objects++;
    key.list(objects);
    for (const name in w.cloud) {
      const o = w.cloud[name]!;
      data(o.id);
      data(o.type);
      data(o.attrs);
      data(o.dataGb);
    }
    data(w.state.resources);
    data(w.lock?.id ?? null);
    data(w.createFailures);
    key.list(w.ops.length);
    for (const o of w.ops) {
      key.str(o.kind);
      switch (o.kind) {
        case 'lock':
          data(o.result.ok ? o.result.output : 'E');
          break;
        case 'refresh':
          data(o.addresses);
          break;
        case 'apply':
          data(o.input);
          data(o.failure);
          break;
        case 'persist':
          tf(o.input.state);
          data(o.input.lockId);
          break;
        case 'unlock':
          data(o.lockId);
          break;
      }
    }

    const m = w.monitor;
    const opPosition = opPositions(w.ops);
    key.list(m.run.length);
    for (const c of m.run) {
      data(c.address);
      data(c.kind);
      data(c.ok);
      // 0: the call has finished (op ids start at 1)
      key.num(c.op ? opPosition(c.op) : Number.NaN);
      data(c.busy);
    }
    key.flag(m.unlockedWrites > 0);
    key.flag(m.serialRegressions > 0);
    key.flag(m.destroyedDataGb > 0);
    // Event types, send ids and actor ids are the machine's names, never random ids.
    writeQueue(state, key, opPosition);
  };
}
