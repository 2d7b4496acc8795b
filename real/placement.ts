// Where a created pod goes in an Incus cluster (docs: explanation/clustering "Automatic placement of
// instances", howto/cluster_manage_instance "Launch an instance on a specific cluster member"):
// - scheduler (default): no `target`; the cluster's scheduler picks the member (Incus 6.0: the one
//   with the fewest instances of all owners, among those the instance may run on).
// - spread: `?target=<member>` chosen here — the online member with the fewest of THIS HPA's pods
//   (observed `location`s plus creates sent since that observation), ties by member name, so the
//   HPA's own pods are spread whatever else runs on the members.
// - target: every pod on that member, or on a cluster group (`@group`, the scheduler picks inside it).
// On a server that is not clustered only `scheduler` applies; spread and target fail the create
// with the server's own answer, an API error the loop backs off on (spread: GET /1.0/cluster/members
// answers 500 "Server is not clustered", checked on Incus 6.0.4; target: POST /1.0/instances answers
// 400 "Target only allowed when clustered", cmd/incusd/instances_post.go).
import type { IncusClient, InstanceFull } from './incus';
import { IncusError } from './incus';

export type Placement = { kind: 'scheduler' } | { kind: 'spread' } | { kind: 'target'; target: string };

interface ClusterMember {
  server_name: string;
  status: string;
  message?: string;
}

/** No member can take a pod: every one is offline or evacuated. */
class NoMemberError extends IncusError {
  override name = 'NoMemberError';
}

/** Counts this HPA's pods per member between observations; one per runner. */
export class SpreadPlacement {
  /** Member of each owned pod in the last observation. */
  private observed = new Map<string, string>();
  /** Creates sent and not yet seen in an observation (by name), with the member asked for. */
  private readonly sent = new Map<string, string>();
  /** Of those, the ones whose request has ended (created, or failed and cleaned up). */
  private readonly ended = new Set<string>();

  /**
   * A new observation (the owned list, each with its `location`). A create it lists is counted
   * through its location from now on; one it does not list is forgotten only if its request has
   * ended (the pod is gone again). A create still in flight stays counted: parallel creates may
   * outlive an observation (one failed, the loop backed off and looked again), and forgetting
   * them put two pods of three on one member.
   */
  seen(owned: readonly Pick<InstanceFull, 'name' | 'location'>[]): void {
    this.observed = new Map(owned.map((i) => [i.name, i.location]));
    for (const name of [...this.sent.keys()]) {
      if (this.observed.has(name) || this.ended.has(name)) this.forget(name);
    }
  }

  /** The create of `name` has ended, whatever its outcome: the next observation tells. */
  settled(name: string): void {
    if (this.sent.has(name)) this.ended.add(name);
  }

  /** A create failed (nothing, or a removed leftover, is there now). */
  forget(name: string): void {
    this.sent.delete(name);
    this.ended.delete(name);
  }

  /** The member for pod `name` among `online` ones: the fewest of our pods, then by name. Recorded as sent. */
  pick(online: readonly string[], name: string): string {
    const count = new Map([...online].sort().map((m) => [m, 0]));
    for (const member of [...this.observed.values(), ...this.sent.values()]) {
      if (count.has(member)) count.set(member, count.get(member)! + 1);
    }
    const members = [...count.keys()];
    const member = members.reduce((best, m) => (count.get(m)! < count.get(best)! ? m : best), members[0]!);
    this.sent.set(name, member);
    return member;
  }

  /** The member for pod `name`: asks the cluster which members are online, then picks. */
  async choose(client: IncusClient, name: string, signal?: AbortSignal): Promise<string> {
    const members = await client.get<ClusterMember[]>('/1.0/cluster/members', { query: { recursion: 1 }, ...(signal ? { signal } : {}) });
    const online = members.filter((m) => m.status === 'Online').map((m) => m.server_name);
    if (!online.length) {
      const why = members.map((m) => `${m.server_name} ${m.status}${m.message ? ` (${m.message})` : ''}`).join(', ');
      throw new NoMemberError(
        `placement spread: no cluster member is online to create ${name} on (${why || 'no members: not a cluster?'})`,
      );
    }
    return this.pick(online, name);
  }
}

/** The `target` of one create under `placement` (undefined: the scheduler decides). */
export async function targetFor(
  placement: Placement,
  spread: SpreadPlacement,
  client: IncusClient,
  name: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (placement.kind === 'target') return placement.target;
  if (placement.kind === 'spread') return spread.choose(client, name, signal);
  return undefined;
}
