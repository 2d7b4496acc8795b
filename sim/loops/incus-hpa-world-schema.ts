// The HPA's frame.world, as the trace format reads it (sim/loop-schemas.ts): the summary functions
// that fill it are sim/worlds/incus-hpa.ts and real mode's runner. Loose objects: a reader keeps what
// a newer writer adds.
// The summary's type is declared here, with its schema, so the trace format imports no world.
import { z } from 'zod';
import type { WorldObject } from '../world-object';
import type { InstanceStatus } from '../../machines/incus-hpa';

const INSTANCE_STATUSES = ['Starting', 'Running', 'Stopping', 'Stopped', 'Frozen', 'Error'] as const;

export interface HpaWorldSummary {
  demand: number;
  pods: { name: string; status: InstanceStatus; owned: boolean; usage: number; total: number; pct: number | null }[];
  apiCalls: number;
  unownedTouched: number;
}

export const hpaWorldSchema: z.ZodType<HpaWorldSummary, WorldObject> = z.looseObject({
  demand: z.number(),
  pods: z.array(
    z.looseObject({
      name: z.string(),
      status: z.enum(INSTANCE_STATUSES),
      owned: z.boolean(),
      usage: z.number(),
      total: z.number(),
      pct: z.number().nullable(),
    }),
  ),
  apiCalls: z.number(),
  unownedTouched: z.number(),
});
