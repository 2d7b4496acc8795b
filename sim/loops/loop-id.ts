// The loops' ids on their own, imported by everything keyed by a loop (the trace format's controller
// schemas included) without the definitions' types: sim/loops/define.ts re-exports them.

/** Every loop loopscope knows, in the home page's order of appearance. Registries keyed by LoopId
 * (`satisfies Record<LoopId, …>`) fail to compile when a loop lacks a piece. */
export const LOOP_IDS = ['cron', 'puppet', 'systemd-restart', 'terraform', 'kubernetes', 'incus-hpa'] as const;
export type LoopId = (typeof LOOP_IDS)[number];
export const isLoopId = (id: unknown): id is LoopId => typeof id === 'string' && (LOOP_IDS as readonly string[]).includes(id);
