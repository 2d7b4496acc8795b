import type { StateResource, TerraformConfig, TerraformContext, TfState } from '../../machines/terraform';
import { SCHEMAS } from '../../machines/terraform';
import type { TerraformLoopConfig } from '../loops/terraform';
import type { PendingOp, TerraformWorld } from '../worlds/terraform';
import type { CheckState } from '../check/model';
import type { KeyWriter } from '../check/key-writer';

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
export function terraformCanonicalizer(): (state: State, out: KeyWriter) => void {
  const configKeys = new WeakMap<TerraformConfig, string>();
  const configKey = (c: TerraformConfig) => {
    let k = configKeys.get(c);
    if (k === undefined) {
      k = JSON.stringify(c);
      configKeys.set(c, k);
    }
    return k;
  };

  return (state: State, out: KeyWriter): void => {
    const { t, world: w } = state;
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
    const tokens = new Map<string, string>();
    const replacer = (_key: string, v: unknown) => {
      if (typeof v !== 'string' || !random.has(v)) return v;
      let tok = tokens.get(v);
      if (tok === undefined) {
        tok = `#${tokens.size}`;
        tokens.set(v, tok);
      }
      return tok;
    };

    const tf = (s: TfState | null | undefined) => (s ? [s.serial - serial, s.resources] : null);
    const opIndex = new Map<number, number>();
    w.ops.forEach((o, i) => opIndex.set(o.id, i));
    const op = (o: PendingOp): unknown => {
      switch (o.kind) {
        case 'lock':
          return ['l', o.result.ok ? o.result.output : 'E'];
        case 'refresh':
          return ['r', o.addresses];
        case 'apply':
          return ['a', o.input, o.failure];
        case 'persist':
          return ['p', tf(o.input.state), o.input.lockId];
        case 'unlock':
          return ['u', o.lockId];
      }
    };
    const m = w.monitor;
    const queue = [...state.queue]
      .sort((a, b) => a.at - b.at || a.seq - b.seq)
      .map((q) =>
        q.kind === 'event'
          ? ['e', q.at - t, q.event.type, q.sendId ?? '']
          : [
              'o',
              q.at - t,
              q.childId,
              opIndex.get(q.opId) ?? -1,
              state.snapshot.children[q.childId] !== undefined && state.live[q.childId] === q.seq ? 1 : 0,
            ],
      );

    const key = {
      s: state.snapshot.value,
      ch: Object.keys(state.snapshot.children),
      x: [
        ctx.lockId,
        tf(ctx.loaded),
        ctx.refreshed,
        ctx.plan ? ctx.plan.errors.length : null,
        ctx.progress ? [ctx.progress.ops, ctx.progress.done, ctx.progress.failed, ctx.progress.state, ctx.progress.errors.length] : null,
        ctx.current,
        tf(ctx.toWrite),
        ctx.lastError !== null,
      ],
      w: [
        Object.values(w.cloud).map((o) => [o.id, o.type, o.attrs, o.dataGb]),
        w.state.resources,
        w.lock?.id ?? null,
        w.createFailures,
        w.ops.map(op),
      ],
      m: [
        m.run.map((c) => [c.address, c.kind, c.ok, c.op ? (opIndex.get(c.op) ?? -1) : null, c.busy]),
        m.unlockedWrites > 0,
        m.serialRegressions > 0,
        m.destroyedDataGb > 0,
      ],
      q: queue,
    };
    out.str(`${configKey(ctx.config)}|${ctx.runConfig === ctx.config ? '=' : configKey(ctx.runConfig)}|${JSON.stringify(key, replacer)}`);
  };
}
