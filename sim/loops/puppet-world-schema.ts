// Puppet's frame.world, as the trace format reads it (sim/world-summary.ts): the summary function
// that fills it is sim/worlds/puppet.ts. Loose objects: a reader keeps what a newer writer adds.
import { z } from 'zod';
import type { WorldObject } from '../world-object';
import type { PuppetWorldSummary } from '../worlds/puppet';

const names = z.record(z.string(), z.string());

export const puppetWorldSchema: z.ZodType<PuppetWorldSummary, WorldObject> = z.looseObject({
  packages: names,
  files: names,
  services: names,
  users: z.array(z.string()),
  last: z.looseObject({
    run: z.number(), status: z.string(), exitCode: z.number(), changes: z.number(), failed: z.number(), skipped: z.number(), corrective: z.boolean(), noop: z.boolean(),
  }).nullable(),
  reports: z.number(),
  agentChanges: z.number(),
  drifts: z.number(),
  restarts: z.number(),
  resources: z.array(z.looseObject({
    ref: z.string(), status: z.enum(['in sync', 'changed', 'failed', 'skipped', 'noop']), change: z.enum(['corrective', 'intentional']).nullable(),
    outOfSync: z.array(z.string()), restarted: z.boolean(), message: z.string(),
  })),
});
