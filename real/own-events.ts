// Which lifecycle events our own acts cause, so they wake nobody — and only those. A time window
// ("ignore a pod for 3 s after we acted on it") swallowed an operator's delete that came soon after
// our create on a fast host. Instead each act announces the events it will cause
// (what Incus 6.0 sends, checked with `incus monitor --type=lifecycle`: a create with start:true →
// instance-created, instance-started; a stop → instance-shutdown (clean) or instance-stopped
// (forced); a delete → instance-deleted). Each expected event is used up once; what is left is
// forgotten a few seconds after the act ended (an event that never came, e.g. the act failed).

export type OwnActKind = 'create' | 'delete';

const CAUSES: Record<OwnActKind, readonly string[]> = {
  create: ['instance-created', 'instance-started'],
  delete: ['instance-shutdown', 'instance-stopped', 'instance-deleted'],
};

/** How long after an act its unused expectations stay (its trailing events arrive in milliseconds). */
export const OWN_EVENT_GRACE_MS = 5_000;

interface Expectation {
  actions: Set<string>;
  open: number;
  until: number;
}

export class OwnEvents {
  private readonly byName = new Map<string, Expectation>();

  constructor(
    private readonly now: () => number,
    private readonly graceMs = OWN_EVENT_GRACE_MS,
  ) {}

  /** An act on `name` starts: the events it causes are ours. Call before the request is sent. */
  begin(name: string, kind: OwnActKind): void {
    const e = this.live(name) ?? { actions: new Set<string>(), open: 0, until: Infinity };
    for (const a of CAUSES[kind]) e.actions.add(a);
    e.open++;
    e.until = Infinity;
    this.byName.set(name, e);
  }

  /** The act on `name` ended (done or failed): its unused expectations expire after the grace. */
  end(name: string): void {
    const e = this.byName.get(name);
    if (!e) return;
    e.open = Math.max(0, e.open - 1);
    if (e.open === 0) e.until = this.now() + this.graceMs;
  }

  /** Was this event caused by our own act? Uses the expectation up. */
  consume(name: string, action: string): boolean {
    const e = this.live(name);
    if (!e || !e.actions.delete(action)) return false;
    if (e.actions.size === 0 && e.open === 0) this.byName.delete(name);
    return true;
  }

  /** Is an act on `name` in progress? */
  acting(name: string): boolean {
    return (this.live(name)?.open ?? 0) > 0;
  }

  private live(name: string): Expectation | undefined {
    const e = this.byName.get(name);
    if (e && e.open === 0 && this.now() > e.until) {
      this.byName.delete(name);
      return undefined;
    }
    return e;
  }
}
