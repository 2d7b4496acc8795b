// The incus-hpa properties (sim/properties/incus-hpa.ts) as monitors over a real run: each `always`
// property is evaluated on every replayed frame — the replayed machine's snapshot and the model world
// conform carries along (mid-act: with the act begun, as the explorer sees it). The other kinds say
// something about every run (sometimes) or about the run after the environment stops (eventually,
// liveness): one real run cannot decide them, so they are listed as not monitored, with why.
import type { AnyMachineSnapshot } from 'xstate';
import type { HpaConfig } from '../../machines/incus-hpa';
import type { CheckProperty } from '../check/model';
import { hpaProperties, promisesOf } from '../properties/incus-hpa';
import type { HpaWorld } from '../worlds/incus-hpa';
import type { HpaContext } from '../../machines/incus-hpa';

export interface PropertyResult {
  name: string;
  kind: string;
  claim: string;
  promised: boolean;
  /** held / violated: monitored on every frame; not-monitored: see `why`. */
  result: 'held' | 'violated' | 'not-monitored';
  why?: string;
  /** sometimes-properties: whether this run reached the state (a single run cannot refute them). */
  reached?: boolean;
  violatedAt?: { frame: number; t: number };
}

const NOT_MONITORED: Record<string, string> = {
  sometimes: 'a claim about some run among all: one real run can show it (reached) but never refute it',
  eventually: "a bound counted from the instant the environment stops acting: a real run's environment never says when that is",
  'eventually-always': 'a claim about infinite runs: a finite real trace cannot decide it',
  'leads-to': 'a claim about infinite runs: a finite real trace cannot decide it',
};

export class Monitors {
  private readonly properties: CheckProperty<HpaWorld, HpaConfig, HpaContext>[];
  private readonly promised: ReadonlySet<string>;
  private readonly violated = new Map<string, { frame: number; t: number }>();
  private readonly reached = new Set<string>();

  constructor(config: HpaConfig) {
    this.properties = hpaProperties(config, []);
    this.promised = new Set(promisesOf(config));
  }

  /** Evaluates every always-property (and notes the sometimes-properties reached) on one frame. */
  check(frame: number, t: number, snapshot: AnyMachineSnapshot, world: HpaWorld, config: HpaConfig): void {
    const view = { t, snapshot, world, config };
    for (const p of this.properties) {
      if (p.kind === 'always' && !this.violated.has(p.name) && !p.holds(view)) this.violated.set(p.name, { frame, t });
      if (p.kind === 'sometimes' && p.holds(view)) this.reached.add(p.name);
    }
  }

  /** The first violation of a promised property, if any. */
  firstBrokenPromise(): { name: string; claim: string; frame: number; t: number } | undefined {
    const broken = this.properties.flatMap((p) => {
      const at = this.violated.get(p.name);
      return at && this.promised.has(p.name) ? [{ name: p.name, claim: p.claim, ...at }] : [];
    });
    return broken.sort((a, b) => a.frame - b.frame)[0];
  }

  results(): PropertyResult[] {
    return this.properties.map((p) => {
      const base = { name: p.name, kind: p.kind, claim: p.claim, promised: this.promised.has(p.name) };
      if (p.kind !== 'always')
        return {
          ...base,
          result: 'not-monitored' as const,
          why: NOT_MONITORED[p.kind] ?? 'not an invariant',
          ...(p.kind === 'sometimes' ? { reached: this.reached.has(p.name) } : {}),
        };
      const at = this.violated.get(p.name);
      return at ? { ...base, result: 'violated' as const, violatedAt: at } : { ...base, result: 'held' as const };
    });
  }
}
