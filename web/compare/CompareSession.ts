import type { LabSession } from '../lab/session';

/** The last recorded frame at or before t. */
function indexAt(session: LabSession, t: number): number {
  const frames = session.frames;
  let lo = 0,
    hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid]!.t <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Two or three simulations of one scenario and seed, one per policy, held at one virtual time: they
 * step, play, rewind and seek together, so every pane shows the same instant. Each pane is an ordinary
 * LabSession (its world view and chart are the lab's own).
 */
export class CompareSession {
  private time_ = 0;
  private listeners = new Set<() => void>();
  version = 0;

  constructor(
    readonly panes: readonly LabSession[],
    readonly durationMs: number,
  ) {
    for (const p of panes) p.advanceTo(0);
  }

  get time(): number {
    return this.time_;
  }
  get finished(): boolean {
    return this.time_ >= this.durationMs;
  }

  /** Every pane at virtual time t: a run not yet there runs on; one past it shows its frame at t. */
  advanceTo(t: number): void {
    const at = Math.max(0, Math.min(t, this.durationMs));
    for (const p of this.panes) {
      const runner = p.runner;
      if (runner && at >= runner.t) p.advanceTo(at);
      else p.seek(indexAt(p, at));
    }
    this.time_ = at;
    this.changed();
  }

  /** Forward to the next instant at which any pane changes phase (all panes go there together). */
  step(): void {
    const start = this.panes.map((p) => p.frame.phase);
    for (let guard = 0; guard < 10_000; guard++) {
      const next = this.nextEventAt();
      if (next === undefined) {
        this.advanceTo(this.durationMs);
        return;
      }
      this.advanceTo(next);
      if (this.panes.some((p, i) => p.frame.phase !== start[i])) return;
    }
  }

  /** Back to the latest earlier instant at which any pane changed phase. */
  stepBack(): void {
    let best = 0;
    for (const p of this.panes) {
      const frames = p.frames;
      for (let i = indexAt(p, this.time_); i > 0; i--) {
        const f = frames[i]!;
        if (f.t < this.time_ && f.phase !== frames[i - 1]!.phase) {
          best = Math.max(best, f.t);
          break;
        }
      }
    }
    this.advanceTo(best);
  }

  /** The next instant anything happens in any pane (recorded frames ahead, or a runner's queue). */
  private nextEventAt(): number | undefined {
    let next: number | undefined;
    for (const p of this.panes) {
      const recorded = p.frames.find((f) => f.t > this.time_)?.t;
      const queued = p.runner?.nextEventAt;
      for (const c of [recorded, queued])
        if (c !== undefined && c > this.time_ && c <= this.durationMs && (next === undefined || c < next)) next = c;
    }
    return next;
  }

  /** One world event for every pane at the shared time (the same fault, at the same instant, in each run). */
  injectAll(fault: unknown): void {
    for (const p of this.panes) {
      p.presentAt(this.time_);
      p.inject(fault);
    }
    // A fault made after stepping back forks the runs: the faults that were later are gone with that history.
    this.faults = [...this.faults.filter((f) => f.t <= this.time_), { t: this.time_, fault }];
    this.changed();
  }

  /** The world events made from the page, in order (the divergence marks replay them in their own runs). */
  faults: readonly { t: number; fault: unknown }[] = [];

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getVersion = (): number => this.version;
  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}
