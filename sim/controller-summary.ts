// What a frame's controller says, for every loop: the loops' controller schemas keyed by loop id.
// Its own module, below the trace (sim/trace.ts), the binding (sim/model.ts) and the trace's zod
// schema (sim/trace-schema.ts): it imports zod schemas and loop ids only, never a world or a runner.
import type { z } from 'zod';
import { cronControllerSchema } from './loops/cron-controller-schema';
import { hpaControllerSchema } from './loops/incus-hpa-controller-schema';
import { kubernetesControllerSchema } from './loops/kubernetes-controller';
import type { LoopId } from './loops/loop-id';
import { puppetControllerSchema } from './loops/puppet-controller-schema';
import { systemdControllerSchema } from './loops/systemd-restart-controller';
import { terraformControllerSchema } from './loops/terraform-controller';

/** frame.controller of each loop, keyed by the loop's id. */
export const CONTROLLER_SCHEMAS = {
  'incus-hpa': hpaControllerSchema,
  'systemd-restart': systemdControllerSchema,
  cron: cronControllerSchema,
  puppet: puppetControllerSchema,
  terraform: terraformControllerSchema,
  kubernetes: kubernetesControllerSchema,
} as const satisfies Record<LoopId, z.ZodType>;
export type TraceLoop = keyof typeof CONTROLLER_SCHEMAS;
export const TRACE_LOOPS = Object.keys(CONTROLLER_SCHEMAS) as TraceLoop[];

/** What a frame's controller says, for any loop: narrow it on `loop`. */
export type ControllerSummary = z.infer<(typeof CONTROLLER_SCHEMAS)[TraceLoop]>;
