// A real Incus cluster for the tests (cluster.sh builds it: each member its own incusd, INCUS_DIR and
// network namespace). Building needs root and network namespaces: suites run inside `withCluster`,
// which fails them with CI set when the machine cannot build one, and elsewhere skips them saying why.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requires } from '../../prerequisites';

const SCRIPT = fileURLToPath(new URL('./cluster.sh', import.meta.url));
export const CLUSTER_DIR = process.env.LOOPSCOPE_CLUSTER_DIR ?? '/tmp/loopscope-cluster';

export interface ClusterMember {
  name: string;
  /** host:port of its HTTPS listener (the cluster address), on the test bridge. */
  address: string;
  incusDir: string;
  socket: string;
  pid: number;
}

export interface Cluster {
  members: ClusterMember[];
  /** Seconds `cluster.sh up` took. */
  upSeconds: number;
}

function run(args: string[], timeoutMs: number): string {
  try {
    return execFileSync('bash', [SCRIPT, ...args], { encoding: 'utf8', timeout: timeoutMs, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`cluster.sh ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`);
  }
}

/** The cluster suites' gate: root (network namespaces, daemons of its own) and the programs cluster.sh runs. */
export const withCluster = await requires('root', 'cluster-tools');

/** Builds a fresh cluster of `members` (tearing down any leftover first). */
export function buildCluster(members = 2): Cluster {
  const t0 = performance.now();
  process.stderr.write(run(['up', String(members)], 180_000));
  const upSeconds = (performance.now() - t0) / 1000;
  const json = JSON.parse(readFileSync(join(CLUSTER_DIR, 'cluster.json'), 'utf8')) as { members: ClusterMember[] };
  return { members: json.members, upSeconds };
}

/** Kills member i's incusd with SIGKILL (its containers keep running, as after a daemon crash). */
export function killMember(cluster: Cluster, i: number): void {
  process.kill(cluster.members[i]!.pid, 'SIGKILL');
}

/** Starts member i's incusd again and waits until it answers. */
export function restartMember(cluster: Cluster, i: number): void {
  const pid = Number(
    run(['start', String(i + 1)], 90_000)
      .trim()
      .split('\n')
      .pop(),
  );
  cluster.members[i]!.pid = pid;
}

/** Tears everything down (daemons, their containers, namespaces, bridge, directories). */
export function teardownCluster(): void {
  run(['down'], 120_000);
}
