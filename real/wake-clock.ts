// Wake the loop early without changing the machine: XState schedules its `after` delays through the
// actor's clock (createActor(..., { clock }); xstate system.ts Clock). The runner gives the actor
// this clock, real timers underneath, and `fireNow` runs the pending timers at once, as if the
// period had ended. Used only while the machine is waiting, where the period is the one timer.

interface Pending {
  fn: () => void;
  handle: ReturnType<typeof setTimeout>;
}

/** xstate's Clock (system.ts): setTimeout/clearTimeout, as given to createActor. */
export class WakeClock {
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  setTimeout(fn: (...args: unknown[]) => void, timeout: number): number {
    const id = this.next++;
    const handle = setTimeout(() => {
      this.pending.delete(id);
      fn();
    }, timeout);
    this.pending.set(id, { fn: () => fn(), handle });
    return id;
  }

  clearTimeout(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.handle);
    this.pending.delete(id);
  }

  /** Runs every pending timer now (in scheduling order); returns how many fired. */
  fireNow(): number {
    const due = [...this.pending.entries()];
    for (const [id, p] of due) {
      clearTimeout(p.handle);
      this.pending.delete(id);
    }
    for (const [, p] of due) p.fn();
    return due.length;
  }
}
