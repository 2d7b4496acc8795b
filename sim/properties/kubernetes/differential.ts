import type { ControllerConfig, ControllerContext, KObject, NewObject, Reconciler } from '../../../machines/kubernetes';
import type { KubeView } from './view';
import type { ComparesHistories } from '../../check/other-history';
import type { LoopBinding } from '../../model';
import { Runner } from '../../runner';
import type { KubeFault, KubeWorld } from '../../worlds/kubernetes';
import { deleteObject, kubectlApply, store as st } from '../../worlds/kubernetes';
import { contextOf, controllerQuiescent, worldAt } from './view';

/**
 * Acto's differential oracle (Gu et al., "Acto: Automatic End-to-End Testing for Operation
 * Correctness of Cloud System Management", SOSP '23): the same desired state reached by different
 * histories must end in the same world. Here every *settled* state the explorer reaches — the
 * controller quiescent and nothing scheduled in the world, so nothing changes until the
 * environment acts again — is compared with a reference history: the same desired state (the
 * live objects of the controller's `For` kind, by spec) applied to the start world before the
 * controller starts, with no faults, run until it settles (a Pod's spec.nodeName, the scheduler's,
 * is not desired state). A difference is a finding with both
 * traces (the explorer's shortest one and the reference).
 *
 * Normalisation (what is history, not state): uids, resourceVersions, generations and creation
 * times are dropped; a generated name's random suffix (generateName + 5 characters of
 * apimachinery's util/rand alphabet) becomes "*****"; owner references keep kind, name and
 * controller; deletionTimestamp counts only as present; a Pod's spec.nodeName (the scheduler's
 * choice) is dropped; status keys that count or time history (observedGeneration, restarts, and
 * any key ending in Time, Timestamp or Since) are dropped. Compared: the objects of the `For` kind
 * and of the kinds the controller owns. A state whose reference never settles within the bound is
 * not judged (converges reports that controller).
 */

type View = KubeView;

const GENERATED = /-[bcdfghjklmnpqrstvwxz2456789]{5}$/;
const normalName = (n: string) => n.replace(GENERATED, '-*****');
const historyKey = (k: string) => k === 'observedGeneration' || k === 'restarts' || /(Time|Timestamp|Since)$/.test(k);

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>; // cast: a non-null object, read only by its own keys
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stable(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** An object as compared: its identity (kind, namespace, normalised name) and its fields, each as stable JSON. */
/** The spec as its author wrote it: a Pod's nodeName is the scheduler's (binding), not desired state. */
const authoredSpec = (o: KObject): Record<string, unknown> => (o.kind === 'Pod' ? { ...o.spec, nodeName: undefined } : o.spec);

function normalObject(o: KObject): { id: string; fields: Record<string, string> } {
  const m = o.metadata;
  const spec = authoredSpec(o);
  const status = Object.fromEntries(Object.entries(o.status).filter(([k]) => !historyKey(k)));
  return {
    id: `${o.kind} ${m.namespace}/${normalName(m.name)}`,
    fields: {
      deleting: String(m.deletionTimestamp !== undefined),
      labels: stable(m.labels),
      annotations: stable(m.annotations),
      finalizers: stable(m.finalizers),
      owners: stable(m.ownerReferences.map((r) => ({ kind: r.kind, name: normalName(r.name), controller: r.controller }))),
      spec: stable(spec),
      status: stable(status),
    },
  };
}
const line = (o: { id: string; fields: Record<string, string> }) => `${o.id} ${stable(o.fields)}`;

/** What differs, object by object and field by field (a generated name may stand for several objects). */
function describeDifference(have: ReturnType<typeof normalObject>[], want: ReturnType<typeof normalObject>[]): string {
  const out: string[] = [];
  const ids = [...new Set([...have, ...want].map((o) => o.id))].sort();
  for (const id of ids) {
    const h = have.filter((o) => o.id === id);
    const w = want.filter((o) => o.id === id);
    if (h.length !== w.length) {
      out.push(`${id}: ${h.length} here, ${w.length} from the start`);
      continue;
    }
    h.forEach((x, i) => {
      const y = w[i]!;
      for (const f of Object.keys(x.fields))
        if (x.fields[f] !== y.fields[f]) out.push(`${id} ${f}: ${x.fields[f]} here, ${y.fields[f]} from the start`);
    });
  }
  return out.join('; ');
}

/** Settled: the controller has nothing to do and the world nothing scheduled (pod starts, deliveries…). */
function settled(v: View): boolean {
  const w = worldAt(v);
  return w.agenda.length === 0 && controllerQuiescent(w, contextOf(v));
}

/** `binding` runs the user's controller (its machine has it); `r` is that controller. */
export function differential(
  binding: LoopBinding<KubeWorld, KubeFault, ControllerConfig>,
  r: Reconciler<unknown>,
  config: ControllerConfig,
  start: KubeWorld,
  withinMs: number,
): ComparesHistories<KubeWorld, ControllerConfig, ControllerContext> {
  const kinds = [r.forKind, ...r.watches];
  const live = (w: KubeWorld) =>
    Object.values(w.store.objects)
      .filter((o) => o.kind === r.forKind && o.metadata.deletionTimestamp === undefined)
      .sort((a, b) => (st.storeKeyOf(a) < st.storeKeyOf(b) ? -1 : 1));
  const desiredOf = (w: KubeWorld) =>
    live(w)
      .map((o) => `${st.storeKeyOf(o)} ${stable(authoredSpec(o))}`)
      .join('\n');
  const outcomeOf = (w: KubeWorld) =>
    Object.values(w.store.objects)
      .filter((o) => kinds.includes(o.kind))
      .map(normalObject)
      .sort((a, b) => (line(a) < line(b) ? -1 : line(a) > line(b) ? 1 : 0));

  /** The start world with the desired state in place of the start's `For` objects (kubectl apply / delete before t = 0). */
  function referenceStart(desired: KObject[]): KubeWorld {
    let w = start;
    const wanted = new Set(desired.map(st.storeKeyOf));
    for (const o of live(start)) if (!wanted.has(st.storeKeyOf(o))) w = deleteObject(w, st.storeKeyOf(o), 0).world;
    for (const o of desired) {
      const current = w.store.objects[st.storeKeyOf(o)];
      if (current && stable(authoredSpec(current)) === stable(authoredSpec(o))) continue;
      const spec = JSON.parse(stable(authoredSpec(o))) as Record<string, unknown>; // cast: stable() of an object's spec is a JSON object
      const object: NewObject = {
        kind: o.kind,
        metadata: { namespace: o.metadata.namespace, name: o.metadata.name, labels: o.metadata.labels },
        spec,
      };
      w = kubectlApply(w, object, 0).world;
    }
    return w;
  }

  const runReference = (desired: KObject[], record: boolean) => {
    const runner = new Runner<KubeWorld, KubeFault, ControllerConfig>(binding, {
      scenario: 'the same desired state applied from the start, no faults',
      seed: 0,
      world: referenceStart(desired),
      config,
      timeline: [],
      recordFrames: record,
    });
    const view = (): View => ({ t: runner.t, snapshot: runner.snapshot, world: runner.world, config: runner.config });
    while (!settled(view()) && runner.t <= withinMs && runner.processNext());
    return { runner, outcome: settled(view()) ? outcomeOf(worldAt(view())) : undefined };
  };

  const references = new Map<string, ReturnType<typeof outcomeOf> | undefined>();
  const referenceOutcome = (w: KubeWorld) => {
    const key = desiredOf(w);
    if (!references.has(key)) references.set(key, runReference(live(w), false).outcome);
    return references.get(key);
  };
  const differs = (v: View) => {
    if (!settled(v)) return undefined;
    const w = worldAt(v);
    const want = referenceOutcome(w);
    if (want === undefined) return undefined;
    const have = outcomeOf(w);
    if (have.map(line).join('\n') === want.map(line).join('\n')) return undefined;
    return describeDifference(have, want);
  };

  return {
    name: 'differential',
    kind: 'always',
    claim:
      "every settled state equals the world its desired state reaches from the start without faults (Acto's differential oracle; names, uids, versions and times normalised)",
    holds: (v) => differs(v) === undefined,
    other(v) {
      const difference = differs(v);
      if (difference === undefined) return undefined;
      const { runner } = runReference(live(worldAt(v)), true);
      return { label: 'the same desired state applied from the start, no faults', trace: runner.trace(), difference };
    },
  };
}
