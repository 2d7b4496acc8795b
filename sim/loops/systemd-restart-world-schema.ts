// systemd's frame.world, as the trace format reads it (sim/world-summary.ts): the summary function
// that fills it is sim/worlds/systemd-restart.ts. Loose objects: a reader keeps what a newer writer adds.
import { z } from 'zod';
import type { WorldObject } from '../world-object';
import type { SystemdWorldSummary } from '../worlds/systemd-restart';

export const systemdWorldSchema: z.ZodType<SystemdWorldSummary, WorldObject> = z.looseObject({
  main: z.looseObject({ pid: z.number(), since: z.number(), hung: z.boolean() }).nullable(),
  starts: z.number(),
  cleanExits: z.number(),
  exits: z.array(z.looseObject({ at: z.number(), pid: z.number(), how: z.string() })),
});
