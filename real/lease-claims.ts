// Incus's If-Match on a profile PUT is not a compare-and-swap when two PUTs meet: profilePut reads
// the profile in one transaction, checks the ETag, then writes in another (cmd/incusd/profiles.go:
// profilePut → doProfileUpdate), so two PUTs sent with the same ETag can both succeed. Seen here:
// three copies started together, two took the free lease "at once" and both led until one's next
// renewal read the other's name. Creating a profile is atomic (profilesPost checks for the name and
// inserts in one transaction; names are unique per project), so a change of holder first creates a
// claim profile `<lease profile>.<term>`: one copy per term gets it. HPA names have no dots, so a
// claim's name is never another HPA's lease profile.
import type { IncusClient } from './incus';
import { IncusError } from './incus';

const CLAIM_KEY = 'user.loopscope.claim.holder';

export const claimName = (leaseProfile: string, term: number) => `${leaseProfile}.${term}`;

/** Is this Incus error a create refused because the name is taken (a race lost)? */
export const isAlreadyExists = (err: unknown) =>
  err instanceof IncusError && (err.status === 409 || /already exists|UNIQUE constraint/i.test(err.serverMessage));

export interface ClaimOptions {
  /** A claim seen for this long whose term never reached the lease is dead (its copy stopped mid-takeover). */
  staleAfterMs: number;
  now: () => number;
}

/** The claims of one lease profile: which terms exist, take one, give one back. */
export class LeaseClaims {
  /** When this copy first saw each claim (local time: no clock of another host is trusted). */
  private readonly firstSeen = new Map<number, number>();

  constructor(
    private readonly client: IncusClient,
    readonly leaseProfile: string,
    private readonly options: ClaimOptions,
  ) {}

  /** The terms claimed so far (one request: the project's profile names). */
  async terms(timeoutMs?: number): Promise<number[]> {
    const { envelope } = await this.client.request<string[]>('GET', '/1.0/profiles', timeoutMs ? { timeoutMs } : {});
    const prefix = `${this.leaseProfile}.`;
    const terms: number[] = [];
    for (const url of envelope.metadata ?? []) {
      const name = decodeURIComponent(url.slice(url.lastIndexOf('/') + 1).split('?')[0]!);
      if (!name.startsWith(prefix)) continue;
      const term = Number(name.slice(prefix.length));
      if (Number.isInteger(term) && term > 0) terms.push(term);
    }
    const now = this.options.now();
    for (const term of terms) if (!this.firstSeen.has(term)) this.firstSeen.set(term, now);
    return terms;
  }

  /**
   * The term a takeover of a lease at `term` should claim, given the claims above it: the next one
   * when there are none; past the highest when that one is stale; none while a claim is live (a
   * takeover in progress: its copy will write the lease or give the claim back).
   */
  nextTerm(term: number, above: number[]): number | undefined {
    if (above.length === 0) return term + 1;
    const highest = Math.max(...above);
    const seen = this.firstSeen.get(highest) ?? this.options.now();
    return this.options.now() - seen > this.options.staleAfterMs ? highest + 1 : undefined;
  }

  /** Creates the claim of `term` for `holder`; false when another copy claimed it first. */
  async claim(term: number, holder: string, timeoutMs?: number): Promise<boolean> {
    try {
      await this.client.request('POST', '/1.0/profiles', {
        body: {
          name: claimName(this.leaseProfile, term),
          description: `loopscope: ${holder} is taking over ${this.leaseProfile} (do not attach)`,
          config: { [CLAIM_KEY]: holder },
          devices: {},
        },
        ...(timeoutMs ? { timeoutMs } : {}),
      });
      this.firstSeen.set(term, this.options.now());
      return true;
    } catch (err) {
      if (isAlreadyExists(err)) return false;
      throw err;
    }
  }

  /** Deletes claims, best effort: one left behind only costs a profile until the next takeover removes it. */
  async remove(terms: number[], timeoutMs?: number): Promise<void> {
    await Promise.all(
      terms.map((term) =>
        this.client
          .request('DELETE', `/1.0/profiles/${encodeURIComponent(claimName(this.leaseProfile, term))}`, timeoutMs ? { timeoutMs } : {})
          .then(
            () => {
              this.firstSeen.delete(term);
            },
            () => undefined,
          ),
      ),
    );
  }
}
