// Garbage collector of owned leftovers in real mode, whatever the policy — as Kubernetes runs a pod
// garbage collector beside its controllers (pkg/controller/podgc/gc_controller.go removes terminated
// and orphaned pods independently of the ReplicaSet/HPA). An owned instance found Stopped or in Error
// (a create interrupted between create and start, a delete interrupted between stop and delete,
// incusd killed mid-operation) and still so after a grace time is stopped (forced) and deleted.
// While it is being removed it is left out of the observation, as a terminating pod is left out of a
// ReplicaSet's count (controller.FilterActivePods). The simulator is untouched: a policy's own quirks
// about stopped pods (the seed ignores them) stay visible there.
import type { InstanceFull } from './incus';
import type { Identity } from './identity';
import { identityOf } from './identity';

export interface OwnedGcOptions {
  /** How long an owned instance must stay Stopped/Error before it is collected. */
  graceMs: number;
  now: () => number;
  remove: (name: string, identity: Identity) => Promise<void>;
  /** May we act now (leader, not a dry run)? */
  mayAct: () => boolean;
  onRemoved?: (name: string, status: string) => void;
  onFailed?: (name: string, error: unknown) => void;
}

export const GC_GRACE_MS = 3_000;
const LEFTOVER = new Set(['Stopped', 'Error']);

export class OwnedGc {
  private readonly firstSeen = new Map<string, number>();
  private readonly removing = new Set<string>();

  constructor(private readonly options: OwnedGcOptions) {}

  /** Names being collected now: not part of what the policy sees. */
  get collecting(): ReadonlySet<string> {
    return this.removing;
  }

  /**
   * Looks at one owned listing. `busy` are names this process is creating or deleting right now
   * (a create passes through Stopped before its start). Returns the names being collected.
   */
  sweep(owned: InstanceFull[], busy: ReadonlySet<string>): ReadonlySet<string> {
    const now = this.options.now();
    const seen = new Set<string>();
    for (const inst of owned) {
      const status = inst.state?.status ?? inst.status;
      const identity = identityOf(inst);
      if (!LEFTOVER.has(status) || busy.has(inst.name) || !identity) continue;
      const key = `${inst.name}/${identity.uuid}`;
      seen.add(key);
      const since = this.firstSeen.get(key) ?? now;
      this.firstSeen.set(key, since);
      if (now - since < this.options.graceMs || this.removing.has(inst.name) || !this.options.mayAct()) continue;
      this.removing.add(inst.name);
      this.options
        .remove(inst.name, identity)
        .then(
          () => this.options.onRemoved?.(inst.name, status),
          (err: unknown) => this.options.onFailed?.(inst.name, err),
        )
        .finally(() => {
          this.removing.delete(inst.name);
          this.firstSeen.delete(key);
        });
    }
    for (const key of [...this.firstSeen.keys()]) if (!seen.has(key)) this.firstSeen.delete(key);
    return this.removing;
  }
}
