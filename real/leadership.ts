// How `loopscope real` uses the lease (lease.ts): wait as a standby and say so, lead, keep renewing,
// stop acting at once when renewal fails, release on a clean exit so a standby takes over at once.
import { IncusClient } from './incus';
import type { ElectorOptions } from './lease';
import { LeaderElector } from './lease';

export class Leadership {
  readonly elector: LeaderElector;
  private readonly abort = new AbortController();
  private standbySaid = false;
  /**
   * The lease's own connections to the daemon, as kube-controller-manager gives leader election a
   * client of its own (its "leader-election" client): a renewal never queues behind the loop's
   * requests, and the loop's aborted requests (a signal during adoption) never leave the release
   * waiting on a connection they broke — seen with undici 7: a PUT on such a pool that never ends.
   */
  private readonly leaseClient: IncusClient;

  constructor(
    client: IncusClient,
    hpa: string,
    private readonly log: (line: string) => void,
    options: ElectorOptions = {},
  ) {
    this.leaseClient = new IncusClient({ ...client.connection, connections: 2 });
    this.elector = new LeaderElector(this.leaseClient, hpa, {
      ...options,
      onNewLeader: (holder) => {
        if (holder && holder !== this.elector.identity) {
          this.standbySaid = true;
          this.log(
            `standby: HPA ${hpa}'s lease (profile ${this.elector.lock.profile}) is held by ${holder}; ` +
              `waiting, taking over within ${this.elector.leaseDurationMs / 1000} s after it stops renewing`,
          );
        }
      },
      onAttemptFailed: (why) => this.log(`lease: attempt failed: ${why}`),
    });
  }

  holdsLease(): boolean {
    return this.elector.holdsLease();
  }

  /** Resolves true once leading, false when cancelled first. */
  async waitToLead(): Promise<boolean> {
    const led = await this.elector.acquire(this.abort.signal);
    // Said only after standing by: a copy that leads at once keeps stderr quiet (e.g. `--once` under systemd).
    if (led && this.standbySaid)
      this.log(`leading: took over the lease of profile ${this.elector.lock.profile} as ${this.elector.identity}`);
    return led;
  }

  /**
   * Renews in the background; `onLost` runs once if another copy holds the lease now. A renewal that
   * fails because the daemon does not answer only suspends acting until it answers again with the
   * lease still ours (lease.ts renewUntilLost): a lone loop rides out an outage of its daemon.
   */
  keepLeading(onLost: (why: string) => void): void {
    let suspendedAt = 0;
    void this.elector.renewUntilLost(
      (why) => {
        this.log(`lost the lease: ${why}; stopped acting`);
        onLost(why);
      },
      this.abort.signal,
      {
        onSuspended: (why) => {
          suspendedAt = performance.now();
          this.log(`lease: ${why}; stopped acting until Incus answers and the lease is still ours`);
        },
        onResumed: () => this.log(`lease: renewed again after ${((performance.now() - suspendedAt) / 1000).toFixed(1)} s; acting again`),
      },
    );
  }

  /** Stop waiting/renewing and give the lease up (a standby may start at once). */
  async release(): Promise<void> {
    this.abort.abort();
    if (!(await this.elector.release()))
      this.log(`lease: not released; a standby takes over within ${this.elector.leaseDurationMs / 1000} s`);
    await this.leaseClient.close();
  }
}
