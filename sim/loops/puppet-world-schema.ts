// Puppet's frame.world, as the trace format reads it (sim/loop-schemas.ts): the summary function
// that fills it is sim/worlds/puppet.ts. Loose objects: a reader keeps what a newer writer adds.
// The summary's type is declared here, with its schema, so the trace format imports no world.
import { z } from 'zod';
import type { WorldObject } from '../world-object';

const names = z.record(z.string(), z.string());

export interface PuppetWorldSummary {
  packages: Record<string, string>;
  files: Record<string, string>;
  services: Record<string, string>;
  users: string[];
  last: {
    run: number;
    status: string;
    exitCode: number;
    changes: number;
    failed: number;
    skipped: number;
    corrective: boolean;
    noop: boolean;
  } | null;
  reports: number;
  agentChanges: number;
  drifts: number;
  restarts: number;
  /** Every resource of the last report, as its Resource::Status says (added for the lab's view). */
  resources: PuppetResourceRow[];
}

/**
 * A resource's outcome in one run. `changed` is split by Resource::Status#corrective_change:
 * corrective (the host drifted from a catalog that did not change) or intentional (the catalog
 * asked for something new). `noop`: out of sync, only reported (noop mode).
 */
export type PuppetResourceOutcome = 'in sync' | 'changed' | 'failed' | 'skipped' | 'noop';

export interface PuppetResourceRow {
  ref: string;
  status: PuppetResourceOutcome;
  change: 'corrective' | 'intentional' | null;
  outOfSync: string[];
  restarted: boolean;
  message: string;
}

export const puppetWorldSchema: z.ZodType<PuppetWorldSummary, WorldObject> = z.looseObject({
  packages: names,
  files: names,
  services: names,
  users: z.array(z.string()),
  last: z
    .looseObject({
      run: z.number(),
      status: z.string(),
      exitCode: z.number(),
      changes: z.number(),
      failed: z.number(),
      skipped: z.number(),
      corrective: z.boolean(),
      noop: z.boolean(),
    })
    .nullable(),
  reports: z.number(),
  agentChanges: z.number(),
  drifts: z.number(),
  restarts: z.number(),
  resources: z.array(
    z.looseObject({
      ref: z.string(),
      status: z.enum(['in sync', 'changed', 'failed', 'skipped', 'noop']),
      change: z.enum(['corrective', 'intentional']).nullable(),
      outOfSync: z.array(z.string()),
      restarted: z.boolean(),
      message: z.string(),
    }),
  ),
});
