import type { Plan, Reconciler } from '../reconciler';
import { enqueueForAndOwner } from '../reconciler';
import type { KObject, NewObject, PodStatus, Write } from '../types';
import { controllerOf, isPodReady, ownerRef, specOf, splitKey, statusOf } from '../types';

/**
 * The Database operator of seed 002 ("The Operator Pattern", 2017): for a `Database`
 * (example.com/v1) it 1. provisions a volume (a PersistentVolumeClaim), 2. starts the primary,
 * 3. waits until it is ready (RequeueAfter while it is not), 4. starts the replicas, 5. configures
 * replication (a ConfigMap naming the primary and its replicas), 6. schedules backups (a CronJob);
 * and the operations knowledge the seed talks about: when the primary stays unready for
 * failoverAfter (or is gone) it promotes the oldest ready replica and retires the old primary.
 * One step per reconcile, each decided from what is observed (level-triggered); the progress lives
 * in the Database's status, not in the controller's memory.
 */

export interface DatabaseSpec {
  image: string;
  replicas: number;
  storage: string;
  backupSchedule: string;
}
export interface DatabaseStatus {
  phase?: string;
  primary?: string;
  readyReplicas?: number;
  primaryUnreadySince?: number;
  failovers?: number;
  observedGeneration?: number;
  summary?: string;
}

export const DB_FAILOVER_AFTER_MS = 15_000;
export const DB_READY_POLL_MS = 5_000;

const find = (objects: KObject[], kind: string, namespace: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name);

/** Instances have stable names (<db>-0, <db>-1 …, like a StatefulSet's): a create repeated from a
 * stale cache meets AlreadyExists (ignored) instead of starting a second instance. */
function dbPod(db: KObject, role: 'primary' | 'replica', index: number): Write {
  const s = specOf<DatabaseSpec>(db);
  const name = db.metadata.name;
  const object: NewObject = {
    kind: 'Pod',
    metadata: { namespace: db.metadata.namespace, name: `${name}-${index}`, labels: { db: name, role }, ownerReferences: [ownerRef(db)] },
    spec: { containers: [{ name: 'postgres', image: s.image, cpuMilli: 250, port: 5432 }] },
    status: { phase: 'Pending', ready: false, restarts: 0 },
  };
  return { verb: 'create', object, tolerate: ['AlreadyExists'] };
}

/** The lowest indices not used by any instance (including ones being deleted). */
function freeIndices(db: KObject, all: KObject[], count: number): number[] {
  const used = new Set(all.map((p) => Number(p.metadata.name.slice(db.metadata.name.length + 1))));
  const out: number[] = [];
  for (let i = 0; out.length < count; i++) if (!used.has(i)) out.push(i);
  return out;
}

const relabel = (p: KObject, role: string): Write => ({
  verb: 'update',
  object: { ...p, metadata: { ...p.metadata, labels: { ...p.metadata.labels, role } } },
});

export const databaseReconciler: Reconciler<null> = {
  name: 'database',
  forKind: 'Database',
  watches: ['Pod', 'PersistentVolumeClaim', 'ConfigMap', 'CronJob'],
  initialMemory: () => null,
  mapEvent: (event, memory) => ({ requests: enqueueForAndOwner('Database', event), memory }),

  reconcile({ request, view, now, options }): Plan<null> {
    const { namespace, name } = splitKey(request);
    const db = find(view.objects, 'Database', namespace, name);
    if (!db)
      return { batches: [], outcome: { kind: 'ok' }, memory: null, summary: `${request} not found (its objects are garbage collected)` };
    const failoverAfter = typeof options.failoverAfterMs === 'number' ? options.failoverAfterMs : DB_FAILOVER_AFTER_MS;
    const spec = specOf<DatabaseSpec>(db);
    const status = db.status as DatabaseStatus; // cast: unchecked: KObject's status is an untyped record; this kind's as its controller writes it
    const owned = (kind: string) => view.objects.filter((o) => o.kind === kind && controllerOf(o)?.uid === db.metadata.uid);
    const setStatus = (s: DatabaseStatus): Write => ({
      verb: 'updateStatus',
      object: { ...db, status: { ...status, ...s, observedGeneration: db.metadata.generation } },
      retryOnConflict: true,
    });
    const plan = (writes: Write[], summary: string, requeueAfterMs?: number): Plan<null> => ({
      batches: writes.length ? [writes] : [],
      memory: null,
      summary,
      outcome: { kind: 'ok', ...(requeueAfterMs ? { requeueAfterMs } : {}) },
    });
    if (db.metadata.deletionTimestamp !== undefined) return plan([], 'being deleted: the garbage collector removes what it owns');
    // A spec no retry can fix: report it and stop (reconcile.TerminalError, not requeued).
    if (!/^\d+(Mi|Gi|Ti)$/.test(spec.storage)) {
      const message = `spec.storage "${spec.storage}" is not a size like 10Gi`;
      const reported = status.phase === 'Failed' && status.summary === message;
      return {
        batches: reported ? [] : [[setStatus({ phase: 'Failed', summary: message })]],
        outcome: { kind: 'terminal', message },
        memory: null,
        summary: `invalid spec: ${message}`,
      };
    }

    // 1. The volume.
    const pvc = owned('PersistentVolumeClaim')[0];
    if (!pvc) {
      return plan(
        [
          {
            verb: 'create',
            object: {
              kind: 'PersistentVolumeClaim',
              metadata: { namespace, name: `${name}-data`, ownerReferences: [ownerRef(db)] },
              spec: { storage: spec.storage },
              status: { phase: 'Pending' },
            },
            tolerate: ['AlreadyExists'],
          },
          setStatus({ phase: 'Provisioning', summary: 'provisioning the volume' }),
        ],
        `1. provision volume ${name}-data (${spec.storage})`,
      );
    }
    const pvcPhase = (pvc.status as { phase?: string }).phase; // cast: unchecked: KObject's status is an untyped record; this kind's as its controller writes it
    if (pvcPhase !== 'Bound') return plan([], `1. volume ${pvc.metadata.name} is ${pvcPhase}: wait for it`);

    const allPods = owned('Pod');
    const pods = allPods.filter((p) => p.metadata.deletionTimestamp === undefined && statusOf<PodStatus>(p).phase !== 'Failed');
    const primary = pods.find((p) => p.metadata.labels.role === 'primary');
    const replicas = pods
      .filter((p) => p.metadata.labels.role === 'replica')
      .sort((a, b) => a.metadata.creationTimestamp - b.metadata.creationTimestamp || (a.metadata.name < b.metadata.name ? -1 : 1));
    const readyReplicas = replicas.filter(isPodReady);
    const failovers = status.failovers ?? 0;

    // Failover: the primary is gone, or unready for too long, and a ready replica can take over.
    const unreadyFor = primary && !isPodReady(primary) && status.primaryUnreadySince !== undefined ? now - status.primaryUnreadySince : 0;
    const primaryLost = status.phase === 'Ready' || status.phase === 'Configuring' || status.phase === 'Degraded';
    if (primaryLost && (!primary || unreadyFor >= failoverAfter) && readyReplicas.length > 0) {
      const promoted = readyReplicas[0]!;
      const writes: Write[] = [relabel(promoted, 'primary')];
      if (primary) writes.push({ verb: 'delete', kind: 'Pod', namespace, name: primary.metadata.name, tolerate: ['NotFound'] });
      writes.push({
        verb: 'event',
        namespace,
        object: `database/${name}`,
        reason: 'FailoverCompleted',
        type: 'Warning',
        message: `promoted ${promoted.metadata.name}`,
      });
      writes.push(
        setStatus({
          phase: 'Degraded',
          primary: promoted.metadata.name,
          failovers: failovers + 1,
          primaryUnreadySince: undefined,
          summary: `failover: ${promoted.metadata.name} is the primary`,
        }),
      );
      return plan(
        writes,
        `failover: primary ${primary ? `${primary.metadata.name} unready for ${Math.round(unreadyFor / 1000)}s` : 'gone'} → promote ${promoted.metadata.name}`,
      );
    }

    // 2. The primary.
    if (!primary) {
      return plan(
        [dbPod(db, 'primary', freeIndices(db, allPods, 1)[0]!), setStatus({ phase: 'StartingPrimary', summary: 'starting the primary' })],
        '2. start the primary',
      );
    }
    // 3. Wait until it is ready (the seed: "wait for the primary to be ready, then start replicas").
    if (!isPodReady(primary)) {
      const since = status.primaryUnreadySince ?? now;
      const writes =
        status.primaryUnreadySince === undefined
          ? [setStatus({ primaryUnreadySince: now, summary: `primary ${primary.metadata.name} not ready` })]
          : [];
      const phase = primaryLost
        ? `primary unready for ${Math.round((now - since) / 1000)}s (failover after ${failoverAfter / 1000}s${readyReplicas.length ? '' : ', no ready replica'})`
        : `3. wait for primary ${primary.metadata.name} to be ready`;
      return plan(writes, phase, DB_READY_POLL_MS);
    }
    const writes: Write[] = [];
    const steps: string[] = [];
    // 4. The replicas.
    if (replicas.length < spec.replicas) {
      for (const i of freeIndices(db, allPods, spec.replicas - replicas.length)) writes.push(dbPod(db, 'replica', i));
      steps.push(`4. start ${spec.replicas - replicas.length} replica(s)`);
    } else if (replicas.length > spec.replicas) {
      for (const p of replicas.slice(spec.replicas))
        writes.push({ verb: 'delete', kind: 'Pod', namespace, name: p.metadata.name, tolerate: ['NotFound'] });
      steps.push(`4. remove ${replicas.length - spec.replicas} replica(s)`);
    }
    // 5. Replication: the ConfigMap the instances read (primary, and the replicas that follow it).
    const config = { primary: primary.metadata.name, replicas: readyReplicas.map((p) => p.metadata.name).join(',') };
    const cm = owned('ConfigMap')[0];
    if (!cm) {
      writes.push({
        verb: 'create',
        object: {
          kind: 'ConfigMap',
          metadata: { namespace, name: `${name}-replication`, ownerReferences: [ownerRef(db)] },
          spec: { data: config },
        },
        tolerate: ['AlreadyExists'],
      });
      steps.push('5. configure replication');
    } else if (JSON.stringify(configMapData(cm)) !== JSON.stringify(config)) {
      writes.push({ verb: 'update', object: { ...cm, spec: { data: config } } });
      steps.push(`5. replication: ${config.primary} ← [${config.replicas}]`);
    }
    // 6. Backups.
    const cron = owned('CronJob')[0];
    if (!cron) {
      writes.push({
        verb: 'create',
        object: {
          kind: 'CronJob',
          metadata: { namespace, name: `${name}-backup`, ownerReferences: [ownerRef(db)] },
          spec: { schedule: spec.backupSchedule, target: primary.metadata.name },
          status: {},
        },
        tolerate: ['AlreadyExists'],
      });
      steps.push(`6. schedule backups (${spec.backupSchedule})`);
    } else if (backupTarget(cron) !== primary.metadata.name) {
      writes.push({ verb: 'update', object: { ...cron, spec: { ...cron.spec, target: primary.metadata.name } } });
      steps.push(`6. backups now from ${primary.metadata.name}`);
    }
    const ready = readyReplicas.length === spec.replicas && replicas.length === spec.replicas && !steps.length;
    const phase = ready ? 'Ready' : status.phase === 'Degraded' ? 'Degraded' : 'Configuring';
    const next: DatabaseStatus = {
      phase,
      primary: primary.metadata.name,
      readyReplicas: readyReplicas.length,
      primaryUnreadySince: undefined,
      failovers,
      summary: `${phase}: primary ${primary.metadata.name}, ${readyReplicas.length}/${spec.replicas} replicas ready${failovers ? `, ${failovers} failover(s)` : ''}`,
    };
    if (next.summary !== status.summary || status.primaryUnreadySince !== undefined) writes.push(setStatus(next));
    return plan(writes, steps.length ? steps.join('; ') : `${phase}: nothing to do`);
  },
};

const configMapData = (cm: KObject) => (cm.spec as { data?: unknown }).data; // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
const backupTarget = (cron: KObject) => (cron.spec as { target?: string }).target; // cast: unchecked: KObject's spec is an untyped record; this kind's as the manifest schema (sim/loops/kubernetes-manifests.ts) and the reconcilers write it
