import { z } from 'zod';
import type { ApplyOp, TerraformContext } from '../../machines/terraform';
import { actionSymbol } from '../../machines/terraform';

const count = z.number().int().min(0);
const opSchema = z.object({ address: z.string(), kind: z.enum(['create', 'update', 'delete']) });

/** frame.controller for terraform: the run, its plan (per resource: action and symbol) and what was applied. */
export const terraformControllerSchema = z.object({
  loop: z.literal('terraform'),
  mode: z.enum(['apply', 'plan', 'refresh-only']),
  run: count,
  /** The state lock this run holds (null: none). */
  lockId: z.string().nullable(),
  /** Objects refresh found changed or deleted outside Terraform. */
  drift: z.array(z.object({ address: z.string(), kind: z.enum(['changed', 'deleted']) })),
  plan: z
    .object({
      changes: z.array(
        z.object({ address: z.string(), action: z.enum(['create', 'update', 'replace', 'delete', 'no-op']), symbol: z.string() }),
      ),
      errors: z.array(z.string()),
    })
    .nullable(),
  /** The cloud call in flight, if any. */
  applying: opSchema.nullable(),
  /** The apply's operations that returned, by outcome. */
  applied: z.object({ done: z.array(opSchema), failed: z.array(opSchema) }).nullable(),
  /** How the run ended (what `terraform apply` prints last); null while it runs. */
  result: z
    .object({
      ok: z.boolean(),
      exitCode: z.number().int(),
      added: count,
      changed: count,
      destroyed: count,
      notApplied: count,
      serial: count.nullable(),
    })
    .nullable(),
  lastError: z.string().nullable(),
});
export type TerraformController = z.infer<typeof terraformControllerSchema>;

const op = (o: ApplyOp) => ({ address: o.address, kind: o.kind });

/** The one Terraform summary, from the machine's context. */
export function terraformController(ctx: TerraformContext): TerraformController {
  const p = ctx.progress;
  const r = ctx.result;
  return {
    loop: 'terraform',
    mode: ctx.config.mode,
    run: ctx.runs,
    lockId: ctx.lockId,
    drift: ctx.drift.map((d) => ({ address: d.address, kind: d.kind })),
    plan: ctx.plan
      ? {
          changes: ctx.plan.changes.map((c) => ({ address: c.address, action: c.action, symbol: actionSymbol(c) })),
          errors: ctx.plan.errors,
        }
      : null,
    applying: ctx.current ? op(ctx.current) : null,
    applied: p
      ? { done: p.ops.filter((o) => p.done.includes(o.key)).map(op), failed: p.ops.filter((o) => p.failed.includes(o.key)).map(op) }
      : null,
    result: r
      ? {
          ok: r.ok,
          exitCode: r.exitCode,
          added: r.applied.added,
          changed: r.applied.changed,
          destroyed: r.applied.destroyed,
          notApplied: r.notApplied,
          serial: r.serial,
        }
      : null,
    lastError: ctx.lastError,
  };
}
