// A loop's runner back with its types. The registry holds loops with their types erased
// (sim/loops/define.ts, eraseLoop), so a runner built from it is a Runner<unknown, …>; a reader that
// knows which loop it runs (the lab's editors) narrows here, on the loop id, rather than casting
// its config or world.
import type { LoopBinding } from './model';
import type { cronBinding } from './loops/cron';
import type { hpaBinding } from './loops/incus-hpa';
import type { kubernetesBinding } from './loops/kubernetes';
import type { LoopId } from './loops/loop-id';
import type { puppetBinding } from './loops/puppet';
import type { systemdBinding } from './loops/systemd-restart';
import type { terraformBinding } from './loops/terraform';
import type { Runner } from './runner';

/** Each loop's binding type, by id: where its world, fault and config types are read from. */
interface LoopBindings {
  'incus-hpa': typeof hpaBinding;
  'systemd-restart': typeof systemdBinding;
  cron: typeof cronBinding;
  puppet: typeof puppetBinding;
  terraform: typeof terraformBinding;
  kubernetes: typeof kubernetesBinding;
}

/** The runner of loop L: its world, faults and config as L's binding declares them. */
export type RunnerOf<L extends LoopId> = LoopBindings[L] extends LoopBinding<infer W, infer F, infer C> ? Runner<W, F, C> : never;

/** `runner` as loop `loop`'s when it runs that loop (its binding's id); otherwise undefined. */
export function runnerOf<L extends LoopId>(loop: L, runner: Runner<unknown, unknown, unknown>): RunnerOf<L> | undefined {
  // The one trusted step: a runner's binding is its loop's (the registry built it from that loop's
  // definition), so the binding's id vouches for its world, fault and config types.
  return runner.binding.loop === loop ? (runner as RunnerOf<L>) : undefined; // cast: the binding id vouches for the types (above)
}
