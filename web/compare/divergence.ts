import type { LoopId } from '../../sim/loops/define';
import { isLoopId } from '../../sim/loops/define';
import { controllerOf } from '../../sim/trace';
import { frameOf } from '../../sim/loop-frames';
import type { Frame, FrameOf } from '../../sim/trace';
import { replicaCounts } from '../worlds/kubernetes/kubeView';

/**
 * What a side-by-side compares between policies: the number of replicas each decided, frame by frame.
 * incus-hpa: the last decision's desired pod count (frame.controller); kubernetes: the replicas the HPA
 * wrote to its target (the ReplicaSets' spec, as the world holds it). null until a first decision.
 * Only loops with policies can be compared; a loop without an entry here shows no marks.
 */
const DECISIONS: { [L in LoopId]?: (f: FrameOf<L>) => number | null } = {
  'incus-hpa': (f) => controllerOf(f, 'incus-hpa')?.decision?.desired ?? null,
  kubernetes: (f) => replicaCounts(f.world)[0],
};

/**
 * The policy a scenario's own configuration names: a built-in name, or another value the format accepts —
 * e.g. a user's policy module (`policy: { module: ./x.ts }`, parsed to the id `module:./x.ts`). Side by side
 * offers "the scenario's own" as a column when this is not one of the loop's named policies (or is undefined).
 */
const OWN_POLICY: Partial<Record<LoopId, (config: unknown) => string | undefined>> = {
  'incus-hpa': (c) => { const p = (c as { policy?: unknown }).policy; return typeof p === 'string' ? p : undefined; },
  // sim/loops/kubernetes-hpa-options.ts: options.policy, the upstream algorithm when absent.
  kubernetes: (c) => { const p = (c as { options?: { policy?: unknown } }).options?.policy; return p === undefined ? 'kubernetes' : typeof p === 'string' ? p : undefined; },
};

export const ownPolicyOf = (loop: string, config: unknown): string | undefined => (isLoopId(loop) ? OWN_POLICY[loop]?.(config) : undefined);

export const decisionOf = (loop: string): ((f: Frame) => number | null) | undefined => (isLoopId(loop) ? decisionOn(loop) : undefined);

/** A loop's decision on the frames of a comparison: every pane and run of one runs the listing's loop, so its id is the frames' (sim/loop-frames.ts). */
function decisionOn<L extends LoopId>(loop: L): ((f: Frame) => number | null) | undefined {
  const decide: ((f: FrameOf<L>) => number | null) | undefined = DECISIONS[loop];
  return decide && ((f) => { const typed = frameOf(loop, loop, f); return typed ? decide(typed) : null; });
}

/** A moment where the columns start to decide differently ('diverge') or decide alike again ('converge'). */
export interface Divergence { t: number; kind: 'diverge' | 'converge'; values: (number | null)[] }

/**
 * The moments the runs' decisions part and meet again. Changes at the same virtual time are taken
 * together (each run's compare happens at the same period tick), so a run merely later by a few
 * frames within one instant is not a divergence; null (no decision yet) is a value like any other.
 */
export function divergences<F extends { t: number }>(runs: readonly (readonly F[])[], decision: (f: F) => number | null): Divergence[] {
  const changes: { t: number; run: number; value: number | null }[] = [];
  runs.forEach((frames, run) => {
    let last: number | null | undefined;
    for (const f of frames) {
      const v = decision(f);
      if (v !== last) { changes.push({ t: f.t, run, value: v }); last = v; }
    }
  });
  changes.sort((a, b) => a.t - b.t || a.run - b.run);
  const current: (number | null)[] = runs.map(() => null);
  const out: Divergence[] = [];
  let apart = false;
  for (let i = 0; i < changes.length;) {
    const t = changes[i]!.t;
    for (; i < changes.length && changes[i]!.t === t; i++) current[changes[i]!.run] = changes[i]!.value;
    const now = current.some((v) => v !== current[0]);
    if (now !== apart) out.push({ t, kind: now ? 'diverge' : 'converge', values: [...current] });
    apart = now;
  }
  return out;
}
