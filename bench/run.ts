import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * `npm run bench`: every benchmark, each case in its own process (honest peak RSS), printed
 * as tables with ratios against the named reference measured in the same run.
 */
interface HpaRow {
  pods: number;
  hours: number;
  policy: string;
  impl: string;
  ms: number;
  coldMs: number;
  periods: number;
  decisions: number;
  decisionsHash: number;
  peakRssMB: number;
}

const tsx = ['--import', 'tsx'];
function runCase(args: string[]): HpaRow {
  const out = execFileSync(process.execPath, [...tsx, 'bench/hpa.ts', ...args], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as HpaRow;
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function hpaTable(): void {
  const cases: [number, number, string][] = [
    [50, 24, 'seed'],
    [50, 24, 'fixed'],
    [50, 24, 'kubernetes'],
    [1000, 168, 'seed'],
  ];
  console.log('\n## HPA simulation: the XState machine vs a plain-function reference loop (same world, same decisions)\n');
  console.log(
    '| case | impl | periods | wall, warm | wall, cold | periods/s (warm) | peak RSS | same decisions | machine/reference (warm) |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---|---:|');
  for (const [pods, hours, policy] of cases) {
    const machine = runCase([String(pods), String(hours), policy, 'machine']);
    const reference = runCase([String(pods), String(hours), policy, 'reference']);
    const same = machine.decisionsHash === reference.decisionsHash && machine.decisions === reference.decisions;
    const name = `${hours === 168 ? '1 week' : `${hours} h`}, ${pods} pods, ${policy}`;
    for (const r of [machine, reference]) {
      console.log(
        `| ${name} | ${r.impl} | ${fmt(r.periods)} | ${fmt(r.ms / 1000, 3)} s | ${fmt(r.coldMs / 1000, 3)} s | ${fmt(r.periods / (r.ms / 1000))} | ${fmt(r.peakRssMB)} MB | ${same ? 'yes' : 'NO'} | ${r.impl === 'machine' ? `${fmt(machine.ms / reference.ms, 2)}×` : '1.00×'} |`,
      );
    }
  }
  console.log(
    '\nTarget: 24 h with 50 pods in under 0.5 s (machine row). Cold = first run in a fresh process (JIT, module init); warm = the 4th run. A week-long case is one run (warm = cold).',
  );
}

// `npm run bench -- hpa` runs only the HPA table.
const only = process.argv[2];
// The 10⁷-state search in fingerprint mode (bench/fingerprint.ts --huge: many minutes): last in the full run, so
// every figure of the explorer's goals comes from one run; `npm run bench -- huge` runs only it.
const huge = () => execFileSync(process.execPath, [...tsx, 'bench/fingerprint.ts', '--huge'], { stdio: 'inherit' });
if (only === 'huge') {
  huge();
  process.exit(0);
}
hpaTable();
// Benchmarks of other areas, when present: each prints its own table.
for (const extra of only === 'hpa'
  ? []
  : [
      'bench/package.ts',
      'bench/inspect.ts',
      'bench/inspect-receiver.ts',
      'bench/explorer.ts',
      'bench/fingerprint.ts',
      'bench/explorer-loops.ts',
      'bench/kubernetes-full.ts',
      'bench/liveness.ts',
      'bench/swarm.ts',
      'bench/user-controller.ts',
      'bench/hpa-policy-module.ts',
      'bench/web.ts',
      'bench/real.ts',
    ]) {
  if (!existsSync(extra)) continue;
  if (extra === 'bench/real.ts' && !existsSync('/var/lib/incus/unix.socket') && !process.env.INCUS_SOCKET) {
    console.log(`\n(${extra}: skipped — no Incus daemon; run .ci/setup-incus.sh first)`);
    continue;
  }
  execFileSync(process.execPath, [...tsx, extra], { stdio: 'inherit' });
}
if (only === undefined) huge();
