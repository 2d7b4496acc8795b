// The loops' ids on their own, imported by everything keyed by a loop without the definitions'
// types (sim/loops/define.ts re-exports them). They are the keys of the trace format's registry
// (sim/loop-schemas.ts), where adding a loop starts.
import { LOOP_SCHEMAS } from '../loop-schemas';

/** Every loop loopscope knows. Registries keyed by LoopId (`satisfies Record<LoopId, …>`) fail to
 * compile when a loop lacks a piece. */
export type LoopId = keyof typeof LOOP_SCHEMAS;

/** The loops in the home page's order of appearance (LOOP_SCHEMAS' order). */
export const LOOP_IDS: readonly LoopId[] = Object.keys(LOOP_SCHEMAS) as LoopId[]; // cast: Object.keys says string[]; these are LOOP_SCHEMAS' own keys
export const isLoopId = (id: unknown): id is LoopId => typeof id === 'string' && Object.hasOwn(LOOP_SCHEMAS, id);
