// Terraform's frame.world, as the trace format reads it (sim/world-summary.ts): the summary function
// that fills it is sim/worlds/terraform.ts. Loose objects: a reader keeps what a newer writer adds.
import { z } from 'zod';
import type { WorldObject } from '../world-object';
import type { TerraformWorldSummary } from '../worlds/terraform';

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const planRow = z.looseObject({
  address: z.string(),
  action: z.enum(['create', 'update', 'replace', 'delete', 'no-op']),
  symbol: z.enum(['+', '~', '-', '-/+', '+/-', ' ']),
  attrs: z.array(z.looseObject({ name: z.string(), before: scalar.nullable(), after: scalar.nullable() })),
  status: z.enum(['applying', 'done', 'failed']),
});

export const terraformWorldSchema: z.ZodType<TerraformWorldSummary, WorldObject> = z.looseObject({
  cloud: z.array(z.looseObject({ id: z.string(), type: z.string(), address: z.string().nullable(), dataGb: z.number() })),
  serial: z.number(),
  state: z.array(z.string()),
  lock: z.looseObject({ id: z.string(), who: z.string(), operation: z.string(), since: z.number() }).nullable(),
  unmanaged: z.number(),
  dataLostGb: z.number(),
  calls: z.number(),
  plan: z.looseObject({ run: z.number(), changes: z.array(planRow) }).nullable(),
  lockHolder: z.string().nullable(),
});
