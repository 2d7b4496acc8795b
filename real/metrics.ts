// Prometheus metrics of a real run (`loopscope real --metrics`), in the text exposition format 0.0.4. Built
// with prom-client (the Node client the Prometheus docs list; it does the format, the escaping of
// label values and HELP text, and histogram buckets/_sum/_count), on a registry of our own (no
// process-wide default registry, no default Node metrics). Fed by the runner's frames and their
// facts (run-facts.ts); gauges that describe "now" are read at scrape time.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RealFrame } from './hpa-runner';
import type { FrameFacts } from './run-facts';

const STATUSES = ['Running', 'Starting', 'Stopping', 'Stopped', 'Frozen', 'Error'] as const;

/** What the scrape reads live: the lease, the events stream, the wake-ups. */
export interface MetricsSources {
  /** The lease as last seen (undefined: no leader election, e.g. --no-leader-elect or a dry run). */
  lease?: () => { holder: string; leading: boolean };
  events?: () => { connected: boolean; reconnects: number; wakeups: number } | undefined;
}

export class RealMetrics {
  readonly registry = new Registry();
  private readonly periods: Counter<'hpa' | 'outcome'>;
  private readonly decisions: Counter<'hpa' | 'verdict'>;
  private readonly acts: Counter<'hpa' | 'kind' | 'outcome'>;
  private readonly errors: Counter<'hpa' | 'actor' | 'kind'>;
  private readonly observeSeconds: Histogram<'hpa'>;
  private readonly pods: Gauge<'hpa' | 'status'>;

  constructor(
    private hpa: string,
    sources: MetricsSources = {},
  ) {
    const registers = [this.registry];
    this.periods = new Counter({
      name: 'loopscope_hpa_periods_total',
      help: 'Periods ended (observe, compare, act), by outcome: done (reached the wait) or error (backed off).',
      labelNames: ['hpa', 'outcome'],
      registers,
    });
    this.decisions = new Counter({
      name: 'loopscope_hpa_decisions_total',
      help: 'Policy decisions, by verdict: scale_up, scale_down, repair (act without changing the count), hold.',
      labelNames: ['hpa', 'verdict'],
      registers,
    });
    this.acts = new Counter({
      name: 'loopscope_hpa_acts_total',
      help: 'Creates and deletes, by outcome: done, error, dry_run, skipped (by the operator).',
      labelNames: ['hpa', 'kind', 'outcome'],
      registers,
    });
    this.errors = new Counter({
      name: 'loopscope_hpa_errors_total',
      help: 'Failures, by the actor that failed and the kind of failure.',
      labelNames: ['hpa', 'actor', 'kind'],
      registers,
    });
    this.observeSeconds = new Histogram({
      name: 'loopscope_hpa_observe_duration_seconds',
      help: 'Time one observe took (list the owned pods and read their state).',
      labelNames: ['hpa'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const self = this;
    this.pods = new Gauge({
      name: 'loopscope_hpa_owned_pods',
      help: 'Pods this HPA owns at the last observe, by status.',
      labelNames: ['hpa', 'status'],
      registers,
    });
    for (const status of STATUSES) this.pods.set({ hpa, status }, 0);
    if (sources.lease) {
      const lease = sources.lease;
      new Gauge({
        name: 'loopscope_hpa_lease_holder',
        help: 'The HPA lease holder as last seen (holder label); 1 when this process leads, else 0.',
        labelNames: ['hpa', 'holder'],
        registers,
        collect() {
          const now = lease();
          this.reset();
          this.set({ hpa: self.hpa, holder: now.holder }, now.leading ? 1 : 0);
        },
      });
    }
    if (sources.events) {
      const events = sources.events;
      new Gauge({
        name: 'loopscope_hpa_events_connected',
        help: '1 while the Incus lifecycle events stream is open.',
        labelNames: ['hpa'],
        registers,
        collect() {
          this.set({ hpa: self.hpa }, events()?.connected ? 1 : 0);
        },
      });
      new Counter({
        name: 'loopscope_hpa_events_reconnects_total',
        help: 'Times the events stream was opened again (incusd restarted).',
        labelNames: ['hpa'],
        registers,
        collect() {
          this.reset();
          this.inc({ hpa: self.hpa }, events()?.reconnects ?? 0);
        },
      });
      new Counter({
        name: 'loopscope_hpa_wakeups_total',
        help: 'Waits ended early by a lifecycle event about an owned pod.',
        labelNames: ['hpa'],
        registers,
        collect() {
          this.reset();
          this.inc({ hpa: self.hpa }, events()?.wakeups ?? 0);
        },
      });
    }
  }

  /** One recorded frame of the run. */
  frame(frame: RealFrame, facts: FrameFacts): void {
    const hpa = this.hpa;
    if (facts.periodEnded) this.periods.inc({ hpa, outcome: facts.periodEnded });
    if (facts.verdict) this.decisions.inc({ hpa, verdict: facts.verdict });
    if (facts.act) this.acts.inc({ hpa, kind: facts.act.kind, outcome: facts.act.outcome });
    if (facts.error) this.errors.inc({ hpa, actor: facts.error.actor, kind: facts.error.kind });
    if (facts.observeMs !== undefined) this.observeSeconds.observe({ hpa }, facts.observeMs / 1000);
    if (frame.event === 'xstate.done.actor.observe') {
      const owned = frame.world.pods.filter((p) => p.owned);
      for (const status of STATUSES) this.pods.set({ hpa, status }, owned.filter((p) => p.status === status).length);
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
