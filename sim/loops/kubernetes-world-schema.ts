// Kubernetes' frame.world, as the trace format reads it (sim/loop-schemas.ts): the summary function
// that fills it is sim/worlds/kubernetes/summary.ts. Loose objects: a reader keeps what a newer writer adds.
// The summary's type is declared here, with its schema, so the trace format imports no world.
import { z } from 'zod';
import type { WorldObject } from '../world-object';

/** What `kubectl get pods,rs,deploy,nodes,<custom>` and `kubectl get events` would show. */
export interface KubeSummary {
  pods: { name: string; ready: boolean; status: string; restarts: number; node: string; owner: string }[];
  replicasets: { name: string; desired: number; current: number; ready: number }[];
  deployments: { name: string; ready: string; upToDate: number; available: number; generation: number; observedGeneration: number }[];
  nodes: { name: string; ready: boolean; cpu: string; pods: number }[];
  /** Other kinds (Services, HPAs, custom resources): a name and a one-line state. */
  resources: { kind: string; name: string; state: string; deleting?: boolean }[];
  queues: { name: string; length: number }[];
  events: { t: number; type: string; object: string; reason: string; message: string }[];
  watch: { cached: number; inFlight: number; dropped: number };
  apiWrites: number;
  conflicts: number;
}

export const kubernetesWorldSchema: z.ZodType<KubeSummary, WorldObject> = z.looseObject({
  pods: z.array(
    z.looseObject({ name: z.string(), ready: z.boolean(), status: z.string(), restarts: z.number(), node: z.string(), owner: z.string() }),
  ),
  replicasets: z.array(z.looseObject({ name: z.string(), desired: z.number(), current: z.number(), ready: z.number() })),
  deployments: z.array(
    z.looseObject({
      name: z.string(),
      ready: z.string(),
      upToDate: z.number(),
      available: z.number(),
      generation: z.number(),
      observedGeneration: z.number(),
    }),
  ),
  nodes: z.array(z.looseObject({ name: z.string(), ready: z.boolean(), cpu: z.string(), pods: z.number() })),
  resources: z.array(z.looseObject({ kind: z.string(), name: z.string(), state: z.string(), deleting: z.boolean().optional() })),
  queues: z.array(z.looseObject({ name: z.string(), length: z.number() })),
  events: z.array(z.looseObject({ t: z.number(), type: z.string(), object: z.string(), reason: z.string(), message: z.string() })),
  watch: z.looseObject({ cached: z.number(), inFlight: z.number(), dropped: z.number() }),
  apiWrites: z.number(),
  conflicts: z.number(),
});
