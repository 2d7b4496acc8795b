// Where is the Incus daemon? Resolves connection options the way the incus CLI does:
// - local: $INCUS_SOCKET (full path), else $INCUS_DIR/unix.socket, else /var/lib/incus/unix.socket
// - --remote URL: https with the CLI's client certificate (config dir client.crt/client.key)
// - --remote NAME: the remote's `addr` from the CLI's config.yml (servercerts/NAME.crt pinned)
// Docs: https://linuxcontainers.org/incus/docs/main/environment/ and .../remotes/
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { IncusClient, type IncusConnectOptions } from './client';
import { IncusError } from './errors';

export const DEFAULT_INCUS_DIR = '/var/lib/incus';

type Env = Record<string, string | undefined>;

/** The local daemon's socket: INCUS_SOCKET, else $INCUS_DIR/unix.socket, else the default. */
export function defaultSocketPath(env: Env = process.env): string {
  if (env.INCUS_SOCKET) return env.INCUS_SOCKET;
  return join(env.INCUS_DIR || DEFAULT_INCUS_DIR, 'unix.socket');
}

/** The incus CLI's config directory: $INCUS_CONF, else ~/.config/incus. */
export function cliConfigDir(env: Env = process.env): string {
  if (env.INCUS_CONF) return env.INCUS_CONF;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'incus');
}

interface CliRemote {
  addr?: string;
  protocol?: string;
  project?: string;
  public?: boolean;
}

interface CliConfig {
  'default-remote'?: string;
  remotes?: Record<string, CliRemote>;
}

function readCliConfig(configDir: string): CliConfig {
  const file = join(configDir, 'config.yml');
  if (!existsSync(file)) return {};
  const parsed: unknown = parseYaml(readFileSync(file, 'utf8'));
  return parsed && typeof parsed === 'object' ? (parsed as CliConfig) : {};
}

function readIfExists(file: string): Buffer | undefined {
  return existsSync(file) ? readFileSync(file) : undefined;
}

export interface ResolveOptions {
  /** A remote name from the CLI's config.yml, an https:// URL, or unix:// (+ path). */
  remote?: string;
  project?: string;
  env?: Env;
  /** Overrides the CLI config directory (tests). */
  configDir?: string;
}

function fromAddr(addr: string, name: string | undefined, configDir: string, env: Env): IncusConnectOptions {
  if (addr.startsWith('unix:')) {
    // `unix://` means the default socket; `unix:///path/to/unix.socket` names one.
    const path = addr.replace(/^unix:(\/\/)?/, '');
    return { socketPath: path ? path : defaultSocketPath(env) };
  }
  if (!/^https:\/\//.test(addr)) {
    throw new IncusError(`unsupported Incus remote address ${JSON.stringify(addr)} (want https:// or unix://)`);
  }
  const cert = readIfExists(join(configDir, 'client.crt'));
  const key = readIfExists(join(configDir, 'client.key'));
  const ca = name ? readIfExists(join(configDir, 'servercerts', `${name}.crt`)) : undefined;
  return { url: addr, ...(cert ? { cert } : {}), ...(key ? { key } : {}), ...(ca ? { ca } : {}) };
}

/** Turn `--remote` (or nothing, for the local daemon) into client options. */
export function resolveConnection(opts: ResolveOptions = {}): IncusConnectOptions {
  const env = opts.env ?? process.env;
  const configDir = opts.configDir ?? cliConfigDir(env);
  const withProject = (o: IncusConnectOptions, project?: string): IncusConnectOptions =>
    (opts.project ?? project) ? { ...o, project: opts.project ?? project } : o;
  const remote = opts.remote;
  if (!remote) return withProject({ socketPath: defaultSocketPath(env) });
  if (/^(https|unix):/.test(remote)) {
    // A URL: reuse the name of a configured remote with that address, for its pinned cert.
    const remotes = readCliConfig(configDir).remotes ?? {};
    const name = Object.entries(remotes).find(([, r]) => r.addr === remote)?.[0];
    return withProject(fromAddr(remote, name, configDir, env), name ? remotes[name]?.project : undefined);
  }
  const remotes = readCliConfig(configDir).remotes ?? {};
  const entry = remotes[remote];
  if (!entry?.addr) {
    const known = Object.keys(remotes).join(', ') || 'none';
    throw new IncusError(`unknown Incus remote "${remote}" (known in ${join(configDir, 'config.yml')}: ${known})`);
  }
  if (entry.protocol && entry.protocol !== 'incus' && entry.protocol !== 'lxd') {
    throw new IncusError(`remote "${remote}" is an image server (${entry.protocol}), not an Incus API`);
  }
  return withProject(fromAddr(entry.addr, remote, configDir, env), entry.project);
}

/** Resolve and connect, checking the daemon answers (IncusConnectionError if not). */
export function connectIncus(opts: ResolveOptions = {}): Promise<IncusClient> {
  return IncusClient.connect(resolveConnection(opts));
}
