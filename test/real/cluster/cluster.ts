// A real Incus cluster for the tests (cluster.sh builds it: each member its own incusd, INCUS_DIR and
// network namespace). Building needs root and network namespaces; with CI set a cluster that cannot
// be built fails the suite (clusterUnavailable says why), elsewhere the suite skips with the reason.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CI } from '../../ci';

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

/** Why no cluster can be built here (undefined: it can be tried). */
export const clusterUnavailable: string | undefined = (() => {
  if (process.getuid?.() !== 0) return 'building a cluster needs root (network namespaces, incusd)';
  try {
    execFileSync('sh', ['-c', 'command -v ip && command -v nsenter && command -v unshare && (command -v incusd || test -x /usr/libexec/incus/incusd) && command -v incus'], { stdio: 'ignore' });
  } catch {
    return 'missing ip (iproute2), nsenter/unshare (util-linux), incusd (incus-base) or incus (incus-client)';
  }
  return undefined;
})();

export const skipCluster = clusterUnavailable !== undefined && !CI;

/** Builds a fresh cluster of `members` (tearing down any leftover first). */
export function buildCluster(members = 2): Cluster {
  if (clusterUnavailable) throw new Error(`a real Incus cluster cannot be built here (CI=true, not skipping): ${clusterUnavailable}`);
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
  const pid = Number(run(['start', String(i + 1)], 90_000).trim().split('\n').pop());
  cluster.members[i]!.pid = pid;
}

/** Tears everything down (daemons, their containers, namespaces, bridge, directories). */
export function teardownCluster(): void {
  run(['down'], 120_000);
}
