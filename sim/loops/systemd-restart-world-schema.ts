// systemd's frame.world, as the trace format reads it (sim/loop-schemas.ts): the summary function
// that fills it is sim/worlds/systemd-restart.ts. Loose objects: a reader keeps what a newer writer adds.
// The summary's type is declared here, with its schema, so the trace format imports no world.
import { z } from 'zod';
import type { WorldObject } from '../world-object';

export interface SystemdWorldSummary {
  /** The main process, if any: its PID, age and whether it still answers. */
  main: { pid: number; since: number; hung: boolean } | null;
  starts: number;
  cleanExits: number;
  /** The latest exits, oldest first: when, which PID, how. */
  exits: { at: number; pid: number; how: string }[];
}

export const systemdWorldSchema: z.ZodType<SystemdWorldSummary, WorldObject> = z.looseObject({
  main: z.looseObject({ pid: z.number(), since: z.number(), hung: z.boolean() }).nullable(),
  starts: z.number(),
  cleanExits: z.number(),
  exits: z.array(z.looseObject({ at: z.number(), pid: z.number(), how: z.string() })),
});
