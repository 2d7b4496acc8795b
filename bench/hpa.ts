import type { HpaContext } from '../machines/incus-hpa';
import { hpaBinding } from '../sim/loops/incus-hpa';
import { Runner } from '../sim/runner';
import { hpaWorkload } from './hpa-workload';
import { referenceLoop } from './reference-loop';

/**
 * One benchmark case in its own process (so peak RSS is this case's):
 *   tsx bench/hpa.ts <pods> <hours> <policy> <machine|reference>
 * prints one JSON line.
 */
const [podsArg, hoursArg, policyArg, implArg] = process.argv.slice(2);
const pods = Number(podsArg ?? 50);
const hours = Number(hoursArg ?? 24);
const policy = (policyArg ?? 'seed') as 'seed' | 'fixed' | 'kubernetes';
const impl = implArg ?? 'machine';

function runOnce() {
  const w = hpaWorkload(pods, hours, policy);
  const t0 = performance.now();
  if (impl === 'reference') {
    const r = referenceLoop(w.world, w.config, w.timeline, w.untilMs);
    return { ms: performance.now() - t0, periods: r.periods, decisions: r.decisions, pods: r.world.instances.length };
  }
  const runner = new Runner(hpaBinding, {
    scenario: w.name,
    seed: 42,
    world: w.world,
    config: w.config,
    timeline: w.timeline,
    recordFrames: false,
  });
  const decisions: string[] = [];
  let last: unknown = null;
  while (runner.nextEventAt !== undefined && runner.nextEventAt <= w.untilMs) {
    runner.processNext();
    const d = (runner.snapshot.context as HpaContext).decision;
    if (d && d !== last) {
      decisions.push(d.verdict);
      last = d;
    }
  }
  return {
    ms: performance.now() - t0,
    periods: (runner.snapshot.context as HpaContext).periods,
    decisions,
    pods: runner.world.instances.length,
  };
}

// The first run in a fresh process pays for JIT compilation and module init ("cold"); short cases
// are then repeated and the last run reported as "warm" (steady state). A week-long run is one run.
const cold = runOnce();
let result = cold;
if (hours <= 24) for (let i = 0; i < 3; i++) result = runOnce();
const hash = (list: string[]) => {
  let h = 0;
  for (const s of list.join('|')) h = (h * 31 + s.charCodeAt(0)) | 0;
  return h;
};
process.stdout.write(
  JSON.stringify({
    pods,
    hours,
    policy,
    impl,
    ms: result.ms,
    coldMs: cold.ms,
    periods: result.periods,
    finalPods: result.pods,
    decisions: result.decisions.length,
    decisionsHash: hash(result.decisions),
    peakRssMB: process.resourceUsage().maxRSS / 1024,
  }) + '\n',
);
