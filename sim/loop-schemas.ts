// The trace format's one registry: every loop loopscope knows, with the zod schemas of what its
// frames carry (`controller`, `world`). Adding a loop starts here: the loop ids are this object's
// keys (sim/loops/loop-id.ts), so every registry keyed by LoopId — the simulator's LOOPS, the lab's
// LOOP_UI — fails to compile until it has the new loop. Below the trace (sim/trace.ts), the binding
// (sim/model.ts) and the trace's zod schema (sim/trace-schema.ts): it imports zod schemas only,
// never a world or a runner (a world imports the binding's types, which read ControllerSummary here).
import type { z } from 'zod';
import { cronControllerSchema } from './loops/cron-controller-schema';
import { cronWorldSchema } from './loops/cron-world-schema';
import { hpaControllerSchema } from './loops/incus-hpa-controller-schema';
import { hpaWorldSchema } from './loops/incus-hpa-world-schema';
import { kubernetesControllerSchema } from './loops/kubernetes-controller';
import { kubernetesWorldSchema } from './loops/kubernetes-world-schema';
import { puppetControllerSchema } from './loops/puppet-controller-schema';
import { puppetWorldSchema } from './loops/puppet-world-schema';
import { systemdControllerSchema } from './loops/systemd-restart-controller';
import { systemdWorldSchema } from './loops/systemd-restart-world-schema';
import { terraformControllerSchema } from './loops/terraform-controller';
import { terraformWorldSchema } from './loops/terraform-world-schema';
import type { WorldObject } from './world-object';

/** What one loop's frames carry: its controller summary (keyed by `loop`) and its world summary. */
interface LoopSchemas {
  controller: z.ZodType<{ loop: string }>;
  world: z.ZodType<unknown, WorldObject>;
}

/** Every loop, in the home page's order of appearance (the order of LOOP_IDS), with its frames' schemas. */
export const LOOP_SCHEMAS = {
  cron: { controller: cronControllerSchema, world: cronWorldSchema },
  puppet: { controller: puppetControllerSchema, world: puppetWorldSchema },
  'systemd-restart': { controller: systemdControllerSchema, world: systemdWorldSchema },
  terraform: { controller: terraformControllerSchema, world: terraformWorldSchema },
  kubernetes: { controller: kubernetesControllerSchema, world: kubernetesWorldSchema },
  'incus-hpa': { controller: hpaControllerSchema, world: hpaWorldSchema },
} as const satisfies Record<string, LoopSchemas>;

/** A loop's id as the trace format knows it (sim/loops/loop-id.ts names it LoopId for everyone else). */
type SchemaLoop = keyof typeof LOOP_SCHEMAS;

/** What a frame's controller says, for any loop: narrow it on `loop`. */
export type ControllerSummary = z.infer<(typeof LOOP_SCHEMAS)[SchemaLoop]['controller']>;

/** The world summary a frame of loop L carries. */
export type WorldSummaryOf<L extends SchemaLoop> = z.infer<(typeof LOOP_SCHEMAS)[L]['world']>;
