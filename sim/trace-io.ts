// The I/O record of a real incus-hpa run (frame.io): what the machine was started with and what
// each of its actors answered, so `loopscope conform` can feed the same answers to the same machine
// and hold each answer to the simulated world model. Written by real mode only (real/frame-io.ts);
// optional: simulator traces and traces written before it carry none and stay as they were.
// Browser-safe: zod and the machine's types only.
import { z } from 'zod';
import { KUBERNETES_RELEASES } from '../machines/hpa-algorithm/release';
import type { HpaConfig, Observation } from '../machines/incus-hpa';
import { POLICY_NAMES } from '../machines/incus-hpa';

const count = z.number().int().min(0);
const ms = z.number().min(0);

/** HpaConfig as data (machines/incus-hpa/types.ts): the whole desired state the machine runs on. */
const hpaConfigSchema = z.object({
  name: z.string(),
  minPods: count,
  maxPods: count,
  memoryThreshold: z.number(),
  cpuThreshold: z.number().optional(),
  policy: z.union([z.enum(POLICY_NAMES), z.templateLiteral(['module:', z.string()])]),
  periodMs: ms,
  namePrefix: z.string(),
  limitsMemoryBytes: z.number().min(0),
  backoffInitialMs: ms,
  backoffMaxMs: ms,
  tolerance: z.number(),
  downscaleStabilizationMs: ms,
  kubernetesRelease: z.enum(KUBERNETES_RELEASES),
}) satisfies z.ZodType<HpaConfig>;

const statusSchema = z.enum(['Starting', 'Running', 'Stopping', 'Stopped', 'Frozen', 'Error']);

const observationSchema = z.object({
  at: z.number(),
  instances: z.array(
    z.object({
      name: z.string(),
      status: statusSchema,
      owner: z.string().nullable(),
      memoryUsage: z.number().min(0),
      memoryTotal: z.number().min(0),
      createdAt: z.number(),
    }),
  ),
}) satisfies z.ZodType<Observation>;

/**
 * A failed actor: the message the machine recorded (its lastError) and the failure's class in real
 * mode (real/run-facts.ts ErrorKind: unreachable, timeout, not_found, operation, api, ownership…);
 * `server` is Incus' own error text when it answered one (e.g. "Instance is running").
 */
const errorSchema = z.object({ message: z.string(), kind: z.string(), server: z.string().optional() });

/** An act that was not done: a dry run or the operator's skip, in words (the world was not asked). */
const notDone = z.string().optional();

const answered = (o: { output?: unknown; error?: unknown }) => (o.output === undefined) !== (o.error === undefined);
const ANSWERED = { error: 'expected either output (the actor answered) or error (it failed), not both' };

export const hpaFrameIoSchema = z.discriminatedUnion(
  'kind',
  [
    /** The first frame: the config the machine was started with. */
    z.object({ kind: z.literal('start'), config: hpaConfigSchema }),
    /** A live config edit (CONFIG.UPDATE): the keys sent to the machine. */
    z.object({ kind: z.literal('config'), config: hpaConfigSchema.partial() }),
    /** observe: the owned instances the policy was given; `hidden`: owned ones the real garbage
     * collector was removing, left out of the policy's view (real/owned-gc.ts). */
    z
      .object({
        kind: z.literal('observe'),
        output: observationSchema.optional(),
        hidden: z.array(z.string()).optional(),
        error: errorSchema.optional(),
      })
      .refine(answered, ANSWERED),
    z
      .object({ kind: z.literal('create'), output: z.object({ name: z.string() }).optional(), notDone, error: errorSchema.optional() })
      .refine(answered, ANSWERED),
    /** delete answers nothing on success: no error means done. */
    z.object({
      kind: z.literal('delete'),
      input: z.object({ name: z.string(), waitForStop: z.boolean() }),
      notDone,
      error: errorSchema.optional(),
    }),
  ],
  { error: 'expected an I/O record with kind start, config, observe, create or delete' },
);

export type HpaFrameIo = z.infer<typeof hpaFrameIoSchema>;
export type IoError = z.infer<typeof errorSchema>;
