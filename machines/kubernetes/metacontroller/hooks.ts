import type { KObject, NewObject } from '../types';
import { specOf } from '../types';

/**
 * Metacontroller sync hooks as pure functions — in the seed (003) they are webhooks (a Python
 * sync.py behind HTTP) that receive the observed parent and children and answer with the desired
 * children and the parent's status. Metacontroller does the rest (diff, create, update, delete).
 */

/** A desired child as a hook returns it: no owner, no server fields. */
export type DesiredChild = Omit<NewObject, 'metadata'> & {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
};

export interface CompositeSyncRequest {
  parent: KObject;
  children: Record<string, Record<string, KObject>>;
}
export interface CompositeSyncResponse {
  status: Record<string, unknown>;
  children: DesiredChild[];
}

export interface PodServiceSpec {
  image: string;
  port: number;
  cpu: number;
  host?: string;
}

/**
 * The seed's PodService: one Pod (image, port, resources) and one Service (port and selector),
 * plus the Ingress the seed exposes as http://podservice.local.
 */
export function podServiceSync({ parent, children }: CompositeSyncRequest): CompositeSyncResponse {
  const s = specOf<PodServiceSpec>(parent);
  const name = parent.metadata.name;
  const labels = { app: name };
  const pod = children.Pod?.[name];
  const ready = (pod?.status as { ready?: boolean } | undefined)?.ready === true; // cast: unchecked: KObject's status is an untyped record; this kind's as its controller writes it
  return {
    status: {
      phase: ready ? 'Running' : 'Pending',
      summary: `pod ${ready ? 'ready' : 'not ready'}, service ${children.Service?.[name] ? 'up' : 'pending'}`,
    },
    children: [
      {
        kind: 'Pod',
        metadata: { name, labels },
        spec: { containers: [{ name: 'app', image: s.image, cpuMilli: s.cpu, port: s.port }] },
        status: { phase: 'Pending', ready: false, restarts: 0 },
      },
      { kind: 'Service', metadata: { name, labels }, spec: { selector: labels, port: s.port } },
      { kind: 'Ingress', metadata: { name, labels }, spec: { host: s.host ?? `${name}.local`, service: name, port: s.port } },
    ],
  };
}

export interface DecoratorSyncResponse {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  attachments: DesiredChild[];
}

/**
 * A DecoratorController hook for pods labelled sidecar=inject: it marks the pod and attaches the
 * log-shipper sidecar's configuration. Metacontroller decorators may only add labels,
 * annotations and attachments: a pod's containers cannot change after creation, so the container
 * itself is injected at admission time (a mutating webhook) — the decorator keeps its config and
 * marking in step with every matching pod.
 */
export function sidecarSync(target: KObject): DecoratorSyncResponse {
  const name = target.metadata.name;
  return {
    labels: { 'sidecar.example.com/decorated': 'true' },
    annotations: { 'sidecar.example.com/log-shipper': 'fluent-bit:3.1' },
    attachments: [
      {
        kind: 'ConfigMap',
        metadata: { name: `${name}-log-shipper` },
        spec: { data: { input: `/var/log/pods/${name}`, output: 'loki:3100' } },
      },
    ],
  };
}
