/**
 * Swarm search (sim/swarm/): seeds per minute per core on check scenarios of several loops, and
 * the time to the first violation on the largest Kubernetes check scenario against the exhaustive
 * explorer's time to its verdict, measured in the same run, each in its own process (one core).
 * Run: npx tsx bench/swarm.ts
 */
import { execFileSync } from 'node:child_process';
import { checkScenario, prepareCheck } from '../sim/check/check';
import { loadScenario } from '../sim/loops';
import { seedsOf } from '../sim/swarm/seeds';
import { runSwarm } from '../sim/swarm/swarm';

/** The largest Kubernetes check scenario (20,944 distinct states, the most of any; max-surge violated at 20 steps). */
const LARGEST_KUBERNETES = 'scenarios/kubernetes-check-deployment.yaml';
const RATE_SCENARIOS = [
  'scenarios/terraform-check-orphan-name.yaml',
  'scenarios/cron-check-cronjob-outage.yaml',
  'scenarios/puppet-check-lost-refresh.yaml',
  LARGEST_KUBERNETES,
];
const RATE_SEEDS = 30;

interface Row {
  mode: string;
  file: string;
  ms: number;
  seeds: number;
  states: number;
  firstMs?: number;
  violations: string[];
}

async function measure(mode: string, file: string): Promise<Row> {
  const { entry, scenario } = loadScenario(file);
  const began = performance.now();
  if (mode === 'explore') {
    const run = checkScenario(entry, scenario);
    return {
      mode,
      file,
      ms: performance.now() - began,
      seeds: 0,
      states: run.result.stats.distinct,
      violations: run.result.verdicts
        .filter((v) => v.status === 'violated' && v.property.kind === 'always')
        .map((v) => `${v.property.name}:${v.path!.length}`),
    };
  }
  const prepared = prepareCheck(entry, scenario);
  const run = await runSwarm(prepared, {
    seeds: seedsOf({ from: 0, to: mode === 'first' ? 999 : RATE_SEEDS - 1 }),
    ...(mode === 'first' ? { untilFound: 'any' as const } : {}),
  });
  return {
    mode,
    file,
    ms: performance.now() - began,
    seeds: run.seeds.length,
    states: run.states,
    ...(run.firstViolationMs !== undefined ? { firstMs: run.firstViolationMs } : {}),
    violations: run.violations.map((v) => `${v.property}:${v.path.length}`),
  };
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const inProcess = (mode: string, file: string): Row =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/swarm.ts', '--case', mode, file], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .at(-1)!,
  ) as Row;

async function main(): Promise<void> {
  if (process.argv[2] === '--case') {
    console.log(JSON.stringify(await measure(process.argv[3]!, process.argv[4]!)));
    return;
  }
  console.log(`\n## Swarm: seeds per minute per core (${RATE_SEEDS} seeds, strategies rotating, shrinking included; one process each)\n`);
  console.log('| scenario | seeds | states made | wall | seeds/min/core | violations (shrunk length) |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const file of RATE_SCENARIOS) {
    const r = inProcess('rate', file);
    console.log(
      `| ${file} | ${r.seeds} | ${fmt(r.states)} | ${fmt(r.ms / 1000, 2)} s | ${fmt(r.seeds / (r.ms / 60_000))} | ${r.violations.join(', ') || '–'} |`,
    );
  }
  const explore = inProcess('explore', LARGEST_KUBERNETES);
  const first = inProcess('first', LARGEST_KUBERNETES);
  console.log(`\n## Swarm vs explorer: time to the first violation on ${LARGEST_KUBERNETES} (one process each, same run)\n`);
  console.log('| search | states | time to first violation | time to verdict (incl. shrinking) | result | explorer / swarm |');
  console.log('|---|---:|---:|---:|---|---:|');
  console.log(
    `| explorer (BFS, every state) | ${fmt(explore.states)} | – | ${fmt(explore.ms / 1000, 2)} s | ${explore.violations.join(', ')} (shortest) | 1.00× |`,
  );
  const firstMs = first.firstMs ?? Number.NaN;
  console.log(
    `| swarm (seeds 0.., until a violation) | ${fmt(first.states)} | ${fmt(firstMs / 1000, 2)} s (seed ${first.seeds - 1}) | ${fmt(first.ms / 1000, 2)} s | ${first.violations.join(', ')} (shrunk) | ${fmt(explore.ms / firstMs, 2)}× |`,
  );
  console.log(
    '\nThe explorer reports when its search is complete (the shortest counterexample, and a proof for what holds); the swarm reports its first violation (then shrinks it) and proves nothing.',
  );
}

await main();
