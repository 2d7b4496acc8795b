// What a frame's world says, for every loop: the loops' world-summary schemas keyed by loop id (the
// world's counterpart of ./controller-summary.ts). A trace's `world` is read through its loop's
// schema, so a parsed frame of loop L carries L's summary type.
import type { z } from 'zod';
import type { TraceLoop } from './controller-summary';
import { cronWorldSchema } from './loops/cron-world-schema';
import { hpaWorldSchema } from './loops/incus-hpa-world-schema';
import { kubernetesWorldSchema } from './loops/kubernetes-world-schema';
import { puppetWorldSchema } from './loops/puppet-world-schema';
import { systemdWorldSchema } from './loops/systemd-restart-world-schema';
import { terraformWorldSchema } from './loops/terraform-world-schema';

/** frame.world of each loop, keyed by the loop's id. */
export const WORLD_SCHEMAS = {
  'incus-hpa': hpaWorldSchema,
  'systemd-restart': systemdWorldSchema,
  cron: cronWorldSchema,
  puppet: puppetWorldSchema,
  terraform: terraformWorldSchema,
  kubernetes: kubernetesWorldSchema,
} as const satisfies Record<TraceLoop, z.ZodType>;

/** The world summary a frame of loop L carries. */
export type WorldSummaryOf<L extends TraceLoop> = z.infer<(typeof WORLD_SCHEMAS)[L]>;
