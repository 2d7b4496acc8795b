import { z } from 'zod';
import type { Container, NewObject } from '../../machines/kubernetes';

/**
 * Manifests as a user would `kubectl apply` them (apps/v1, autoscaling/v2, core/v1 and the seed
 * operators' custom resources), turned into the store's objects. Fields the simulation does not
 * model are accepted and ignored, as the API server would keep them without effect here.
 */

/** CPU quantities: "500m", "1", "0.25" (resource.Quantity, cpu only). */
export function parseCpu(v: string | number): number | null {
  if (typeof v === 'number') return v >= 0 ? Math.round(v * 1000) : null;
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(v.trim());
  if (!m) return null;
  return m[2] === 'm' ? Math.round(Number(m[1])) : Math.round(Number(m[1]) * 1000);
}

const cpuField = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const c = parseCpu(v);
  if (c === null) {
    ctx.addIssue({ code: 'custom', message: `expected a CPU quantity like "250m" or "1", got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return c;
});

const dnsName = z
  .string({ error: 'expected a name (lowercase letters, digits, dashes)' })
  .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, { error: 'expected a DNS-1123 name (lowercase letters, digits, dashes)' });
const labels = z.record(z.string(), z.string(), { error: 'expected a map of label: value' });
const count = z
  .number({ error: 'expected a whole number ≥ 0' })
  .int({ error: 'expected a whole number ≥ 0' })
  .min(0, { error: 'expected a whole number ≥ 0' });
const intOrPercent = z.union([count, z.string().regex(/^\d+%$/, { error: 'expected a number or a percentage like "25%"' })]);

const metadata = z.object({ name: dnsName, namespace: dnsName.optional(), labels: labels.optional(), annotations: labels.optional() });

const containerSchema = z.object({
  name: dnsName,
  image: z.string({ error: 'expected an image name' }),
  ports: z.array(z.object({ containerPort: count })).optional(),
  resources: z.object({ requests: z.object({ cpu: cpuField.optional() }).optional() }).optional(),
});

const templateSchema = z.object({
  metadata: z.object({ labels: labels }),
  spec: z.object({ containers: z.array(containerSchema).min(1, { error: 'expected at least one container' }) }),
});

const selectorSchema = z.object({ matchLabels: labels });

const DEFAULT_CPU_REQUEST = 100;

function toContainer(c: z.output<typeof containerSchema>): Container {
  const port = c.ports?.[0]?.containerPort;
  return {
    name: c.name,
    image: c.image,
    cpuMilli: c.resources?.requests?.cpu ?? DEFAULT_CPU_REQUEST,
    ...(port !== undefined ? { port } : {}),
  };
}

const scalingPolicy = z.object({
  type: z.enum(['Pods', 'Percent'], { error: 'expected Pods or Percent' }),
  value: count,
  periodSeconds: count.min(1).max(1800),
});
// behavior.*.tolerance is a resource.Quantity ≥ 0 (KEP-4951): a number or a decimal string like "0.05".
const toleranceField = z
  .union([z.number(), z.string().regex(/^\d+(\.\d+)?$/)], { error: 'expected a tolerance ≥ 0 like 0.05' })
  .transform((v) => Number(v))
  .refine((v) => v >= 0, { error: 'expected a tolerance ≥ 0 like 0.05' });

const scalingRules = z.object({
  tolerance: toleranceField.optional(),
  stabilizationWindowSeconds: count.max(3600).optional(),
  selectPolicy: z.enum(['Max', 'Min', 'Disabled'], { error: 'expected Max, Min or Disabled' }).optional(),
  policies: z.array(scalingPolicy).optional(),
});

const kinds = {
  Namespace: z.object({ kind: z.literal('Namespace'), metadata }),
  Node: z.object({
    kind: z.literal('Node'),
    metadata,
    status: z.object({ capacity: z.object({ cpu: cpuField, pods: count.optional() }) }),
  }),
  ReplicaSet: z.object({
    kind: z.literal('ReplicaSet'),
    metadata,
    spec: z.object({
      replicas: count.optional(),
      minReadySeconds: count.optional(),
      selector: selectorSchema,
      template: templateSchema,
    }),
  }),
  Deployment: z.object({
    kind: z.literal('Deployment'),
    metadata,
    spec: z.object({
      replicas: count.optional(),
      selector: selectorSchema,
      template: templateSchema,
      strategy: z
        .object({
          type: z.literal('RollingUpdate').optional(),
          rollingUpdate: z.object({ maxSurge: intOrPercent.optional(), maxUnavailable: intOrPercent.optional() }).optional(),
        })
        .optional(),
    }),
  }),
  Service: z.object({
    kind: z.literal('Service'),
    metadata,
    spec: z.object({ selector: labels, ports: z.array(z.object({ port: count, targetPort: count.optional() })).optional() }),
  }),
  HorizontalPodAutoscaler: z.object({
    kind: z.literal('HorizontalPodAutoscaler'),
    metadata,
    spec: z.object({
      scaleTargetRef: z.object({ kind: z.literal('Deployment', { error: 'expected kind Deployment' }), name: dnsName }),
      minReplicas: count.min(1).optional(),
      maxReplicas: count.min(1),
      metrics: z
        .array(
          z.object({
            type: z.literal('Resource'),
            resource: z.object({
              name: z.literal('cpu'),
              target: z.object({ type: z.literal('Utilization'), averageUtilization: count.min(1) }),
            }),
          }),
        )
        .length(1, { error: 'expected one cpu Utilization metric' }),
      behavior: z.object({ scaleUp: scalingRules.optional(), scaleDown: scalingRules.optional() }).optional(),
    }),
  }),
  Application: z.object({ kind: z.literal('Application'), metadata, spec: z.object({ image: z.string(), replicas: count, port: count }) }),
  Database: z.object({
    kind: z.literal('Database'),
    metadata,
    spec: z.object({
      image: z.string().optional(),
      replicas: count.optional(),
      storage: z.string().optional(),
      backupSchedule: z.string().optional(),
    }),
  }),
  PodService: z.object({
    kind: z.literal('PodService'),
    metadata,
    spec: z.object({
      image: z.string(),
      port: count,
      resources: z.object({ requests: z.object({ cpu: cpuField.optional() }).optional() }).optional(),
      host: z.string().optional(),
    }),
  }),
  QueueScaler: z.object({
    kind: z.literal('QueueScaler'),
    metadata,
    spec: z.object({
      queue: z.string(),
      scaleTargetRef: z.object({ kind: z.literal('Deployment', { error: 'expected kind Deployment' }), name: dnsName }),
      messagesPerWorker: count.min(1),
      minReplicas: count.optional(),
      maxReplicas: count.min(1),
      pollingIntervalSeconds: count.min(1).optional(),
      scaleDownDelaySeconds: count.optional(),
    }),
  }),
  Pod: z.object({
    kind: z.literal('Pod'),
    metadata,
    spec: z.object({ containers: z.array(containerSchema).min(1, { error: 'expected at least one container' }) }),
  }),
} as const;

export type ManifestKind = keyof typeof kinds;
const MANIFEST_KINDS = Object.keys(kinds) as ManifestKind[]; // cast: Object.keys says string[]; these are the object's own keys

export function manifestSchemaFor(kind: string): z.ZodType | undefined {
  return (kinds as Record<string, z.ZodType>)[kind]; // cast: widened to look a kind up by any name (undefined when unknown)
}
export const knownKinds = () => [...MANIFEST_KINDS];

const templateOf = (t: z.output<typeof templateSchema>) => ({
  labels: { ...t.metadata.labels },
  containers: t.spec.containers.map(toContainer),
});

/** A validated manifest → the object kubectl would send. */
export function toNewObject(kind: string, m: unknown): NewObject {
  const ns = (m as { metadata: { namespace?: string } }).metadata.namespace ?? 'default'; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
  const meta = (m as { metadata: z.output<typeof metadata> }).metadata; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
  const base = (namespace: string) => ({ namespace, name: meta.name, labels: meta.labels ?? {}, annotations: meta.annotations ?? {} });
  switch (kind) {
    case 'Namespace':
      return { kind, metadata: base(''), spec: {}, status: { phase: 'Active' } };
    case 'Node': {
      const n = m as z.output<typeof kinds.Node>; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      return {
        kind,
        metadata: base(''),
        spec: { cpuMilli: n.status.capacity.cpu, maxPods: n.status.capacity.pods ?? 110 },
        status: { ready: true },
      };
    }
    case 'ReplicaSet': {
      const r = (m as z.output<typeof kinds.ReplicaSet>).spec; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      return {
        kind,
        metadata: base(ns),
        spec: {
          replicas: r.replicas ?? 1,
          selector: { ...r.selector.matchLabels },
          template: templateOf(r.template),
          ...(r.minReadySeconds ? { minReadySeconds: r.minReadySeconds } : {}),
        },
        status: {},
      };
    }
    case 'Deployment': {
      const d = (m as z.output<typeof kinds.Deployment>).spec; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      const ru = d.strategy?.rollingUpdate;
      return {
        kind,
        metadata: base(ns),
        spec: {
          replicas: d.replicas ?? 1,
          selector: { ...d.selector.matchLabels },
          template: templateOf(d.template),
          strategy: { maxSurge: ru?.maxSurge ?? '25%', maxUnavailable: ru?.maxUnavailable ?? '25%' },
        },
        status: {},
      };
    }
    case 'Service': {
      const s = (m as z.output<typeof kinds.Service>).spec; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      return { kind, metadata: base(ns), spec: { selector: { ...s.selector }, port: s.ports?.[0]?.port ?? 80 }, status: {} };
    }
    case 'HorizontalPodAutoscaler': {
      const h = (m as z.output<typeof kinds.HorizontalPodAutoscaler>).spec; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      return {
        kind,
        metadata: base(ns),
        spec: {
          scaleTargetRef: { ...h.scaleTargetRef },
          minReplicas: h.minReplicas ?? 1,
          maxReplicas: h.maxReplicas,
          targetCPUUtilization: h.metrics[0]!.resource.target.averageUtilization,
          ...(h.behavior ? { behavior: structuredClone(h.behavior) } : {}),
        },
        status: {},
      };
    }
    case 'Application': {
      const a = (m as z.output<typeof kinds.Application>).spec; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      return { kind, metadata: base(ns), spec: { image: a.image, replicas: a.replicas, port: a.port }, status: {} };
    }
    case 'Database': {
      const d = (m as z.output<typeof kinds.Database>).spec; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      return {
        kind,
        metadata: base(ns),
        spec: {
          image: d.image ?? 'postgres:16',
          replicas: d.replicas ?? 2,
          storage: d.storage ?? '10Gi',
          backupSchedule: d.backupSchedule ?? '0 3 * * *',
        },
        status: {},
      };
    }
    case 'PodService': {
      const p = (m as z.output<typeof kinds.PodService>).spec; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      return {
        kind,
        metadata: base(ns),
        spec: { image: p.image, port: p.port, cpu: p.resources?.requests?.cpu ?? DEFAULT_CPU_REQUEST, ...(p.host ? { host: p.host } : {}) },
        status: {},
      };
    }
    case 'QueueScaler': {
      const q = (m as z.output<typeof kinds.QueueScaler>).spec; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      return {
        kind,
        metadata: base(ns),
        spec: {
          queue: q.queue,
          scaleTargetRef: { ...q.scaleTargetRef },
          messagesPerWorker: q.messagesPerWorker,
          minReplicas: q.minReplicas ?? 0,
          maxReplicas: q.maxReplicas,
          pollingIntervalSeconds: q.pollingIntervalSeconds ?? 10,
          scaleDownDelaySeconds: q.scaleDownDelaySeconds ?? 120,
        },
        status: {},
      };
    }
    case 'Pod': {
      const p = (m as z.output<typeof kinds.Pod>).spec; // cast: m was parsed by kinds[kind] (parseManifest) before it gets here; the switch is on that kind
      return {
        kind,
        metadata: base(ns),
        spec: { containers: p.containers.map(toContainer) },
        status: { phase: 'Pending', ready: false, restarts: 0 },
      };
    }
    default:
      throw new Error(`no converter for kind ${kind}`);
  }
}
