// What some suites need from the machine beyond `npm ci` (a tool, a browser, a daemon, root), how
// to tell whether it is there, and what installs it. One gate for every suite: outside CI a suite
// whose prerequisite is missing skips and says once why; with CI set it fails with the same reason,
// so a green CI run never hides a suite that did not run.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { TestFunction } from 'vitest';
import { describe, it } from 'vitest';
import { CI } from './ci';

export interface Prerequisite {
  /** What is missing, in a few words (undefined: it is there). */
  detect(): string | undefined | Promise<string | undefined>;
  /** What a newcomer runs to get it. */
  install: string;
}

/** Debian's chromium, the browser the browser suites and bench/web.ts drive. */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether an executable called `name` is on PATH (what `command -v` answers, without a shell). */
export function onPath(name: string, path = process.env.PATH ?? ''): boolean {
  return path.split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, name)));
}

/** A file this process may execute (a directory is searchable with X_OK too, but runs nothing). */
function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

const tool = (name: string, install: string): Prerequisite => ({ detect: () => (onPath(name) ? undefined : `${name} missing`), install });

/** The Incus daemon answers one request on its unix socket (real/incus finds the socket as the CLI does). */
async function incusDaemonMissing(): Promise<string | undefined> {
  // Loaded only here, so that suites needing only a tool never load the Incus client.
  const { IncusClient, defaultSocketPath } = await import('../real/incus');
  const client = new IncusClient({ socketPath: defaultSocketPath(), timeoutMs: 5_000 });
  try {
    await client.server();
    return undefined;
  } catch (err) {
    // The client's own message names the socket it tried and what to do.
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.close();
  }
}

/** The programs test/real/cluster/cluster.sh runs to give each member its own network namespace and incusd. */
function clusterToolsMissing(): string | undefined {
  const needed: [ok: boolean, what: string][] = [
    [onPath('ip'), 'ip (iproute2)'],
    [onPath('nsenter') && onPath('unshare'), 'nsenter/unshare (util-linux)'],
    [onPath('incusd') || isExecutable('/usr/libexec/incus/incusd'), 'incusd (incus-base)'],
    [onPath('incus'), 'incus (incus-client)'],
  ];
  const missing = needed.filter(([ok]) => !ok).map(([, what]) => what);
  return missing.length ? `${missing.join(', ')} missing` : undefined;
}

export const PREREQUISITES = {
  /** libxml2's xmllint: well-formed SVG, JUnit reports against test/fixtures/junit.xsd. */
  xmllint: tool('xmllint', 'bash .ci/setup-tools.sh'),
  /** systemd-analyze verify reads back the unit `loopscope real systemd-unit` prints (no running systemd needed). */
  'systemd-analyze': tool('systemd-analyze', 'bash .ci/setup-tools.sh'),
  /** python3 serves the shipped Metacontroller hooks (examples/metacontroller/*.py) on loopback. */
  python3: tool('python3', 'apt-get install python3'),
  chromium: {
    detect: () => (isExecutable(CHROMIUM) ? undefined : `Debian's chromium is not installed at ${CHROMIUM}`),
    install: 'bash .ci/setup-chromium.sh',
  },
  /** A real Incus daemon with the test image: the real-mode suites drive it (never a mock). */
  incus: { detect: incusDaemonMissing, install: 'bash .ci/setup-incus.sh' },
  /** The incus command: it makes client certificates for the HTTPS suites. */
  'incus-cli': tool('incus', 'bash .ci/setup-incus.sh'),
  /** Root: network namespaces and daemons of one's own, or running a command as another user. */
  root: {
    detect: () => (process.getuid?.() === 0 ? undefined : 'not running as root'),
    install: 'run the tests as root (sudo npx vitest run …)',
  },
  'cluster-tools': {
    detect: clusterToolsMissing,
    install: 'bash .ci/setup-incus.sh (incusd, incus); apt-get install iproute2 util-linux (ip, nsenter, unshare)',
  },
} as const satisfies Record<string, Prerequisite>;

export type PrerequisiteName = keyof typeof PREREQUISITES;

/** Why `p` cannot be used here, with what installs it — "xmllint missing — run bash .ci/setup-tools.sh" —
 * or undefined when it is there. */
export async function whyMissing(p: Prerequisite): Promise<string | undefined> {
  const missing = await p.detect();
  if (missing === undefined) return undefined;
  // A message that already names the install command (the Incus client's does) is not told it twice.
  return missing.includes(p.install) ? missing : `${missing} — run ${p.install}`;
}

const found = new Map<PrerequisiteName, Promise<string | undefined>>();

/** Why the named prerequisite is missing here (undefined: it is there). Looked up once per test file. */
export function prerequisite(name: PrerequisiteName): Promise<string | undefined> {
  let reason = found.get(name);
  if (!reason) found.set(name, (reason = whyMissing(PREREQUISITES[name])));
  return reason;
}

/** Suites and tests that run only where their prerequisites are. */
export interface Gate {
  /** Every missing prerequisite's reason, joined (undefined: all there). */
  readonly missing: string | undefined;
  /** True outside CI when something is missing: the gated suites and tests skip. */
  readonly skip: boolean;
  /** A describe that skips outside CI, and in CI is one failing test naming what is missing. */
  describe(title: string, body: () => void): void;
  /** An it that skips outside CI, and in CI fails naming what is missing. */
  it(title: string, fn: TestFunction, timeout?: number): void;
}

const warned = new Set<string>();

/** The gate for prerequisites whose `reasons` were looked up (undefined: that one is there). `ci` is
 * the CI flag, a parameter so that its test can try both. */
export function gate(reasons: (string | undefined)[], ci: boolean = CI): Gate {
  const known = reasons.filter((r): r is string => r !== undefined);
  const missing = known.length ? known.join('; ') : undefined;
  const skip = missing !== undefined && !ci;
  const failure = () => new Error(`${missing} (CI is set: a missing prerequisite fails, it never skips)`);
  /** Says once per test file why what follows is skipped (vitest lists the skipped tests themselves). */
  const warnOnce = (title: string) => {
    if (!skip || missing === undefined || warned.has(missing)) return;
    warned.add(missing);
    console.warn(`skipped: ${missing} ("${title}" and whatever else in this file needs it)`);
  };
  return {
    missing,
    skip,
    describe(title, body) {
      warnOnce(title);
      if (skip) describe.skip(title, body);
      else if (missing !== undefined)
        describe(title, () => {
          it('has its prerequisites', () => {
            throw failure();
          });
        });
      else describe(title, body);
    },
    it(title, fn, timeout) {
      warnOnce(title);
      if (skip) it.skip(title, fn, timeout);
      else if (missing !== undefined)
        it(
          title,
          () => {
            throw failure();
          },
          timeout,
        );
      else it(title, fn, timeout);
    },
  };
}

/** The gate for the named prerequisites: `const xmllint = await requires('xmllint'); xmllint.describe(…)`. */
export async function requires(...names: PrerequisiteName[]): Promise<Gate> {
  return gate(await Promise.all(names.map(prerequisite)));
}
