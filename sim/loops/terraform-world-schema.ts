// Terraform's frame.world, as the trace format reads it (sim/loop-schemas.ts): the summary function
// that fills it is sim/worlds/terraform.ts. Loose objects: a reader keeps what a newer writer adds.
// The summary's type is declared here, with its schema, so the trace format imports no world.
import { z } from 'zod';
import type { WorldObject } from '../world-object';
import type { Scalar } from '../../machines/terraform';

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const planRow = z.looseObject({
  address: z.string(),
  action: z.enum(['create', 'update', 'replace', 'delete', 'no-op']),
  symbol: z.enum(['+', '~', '-', '-/+', '+/-', ' ']),
  attrs: z.array(z.looseObject({ name: z.string(), before: scalar.nullable(), after: scalar.nullable() })),
  status: z.enum(['applying', 'done', 'failed']),
});

export interface TerraformWorldSummary {
  /** Real objects: address (as the state file names them, or "unmanaged") → id, type, data. */
  cloud: { id: string; type: string; address: string | null; dataGb: number }[];
  serial: number;
  state: string[];
  lock: { id: string; who: string; operation: string; since: number } | null;
  /** Objects no state entry points at: Terraform does not know they exist. */
  unmanaged: number;
  dataLostGb: number;
  calls: number;
  /** The last run's plan as applied so far (added for the lab's view); null before any apply. */
  plan: { run: number; changes: PlanRow[] } | null;
  /** Who holds the state lock (LockInfo.Who), or null. */
  lockHolder: string | null;
}

/** plans.Action as the plan renderer shows it. */
export type PlanAction = 'create' | 'update' | 'replace' | 'delete' | 'no-op';

export interface PlanRow {
  address: string;
  action: PlanAction;
  /** + create, ~ update in-place, - destroy, -/+ destroy then create, +/- create_before_destroy. */
  symbol: '+' | '~' | '-' | '-/+' | '+/-' | ' ';
  attrs: { name: string; before: Scalar | null; after: Scalar | null }[];
  /** applying: the cloud call is in flight; done / failed: it returned. */
  status: 'applying' | 'done' | 'failed';
}

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
