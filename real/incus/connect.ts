// Where is the Incus daemon? Resolves connection options the way the incus CLI does:
// - local: $INCUS_SOCKET (full path), else $INCUS_DIR/unix.socket, else /var/lib/incus/unix.socket
// - --remote URL: https with the CLI's client certificate (config dir client.crt/client.key)
// - --remote NAME: the remote's `addr` from the CLI's config.yml (servercerts/NAME.crt pinned)
// Docs: https://linuxcontainers.org/incus/docs/main/environment/ and .../remotes/
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../sim/scenario/errors';
import { readInputFile } from '../../sim/scenario/load';
import { parseYamlText } from '../../sim/scenario/load-text';
import { IncusClient, type IncusConnectOptions } from './client';
import { IncusError } from './errors';

const DEFAULT_INCUS_DIR = '/var/lib/incus';

type Env = Record<string, string | undefined>;

/** The local daemon's socket: INCUS_SOCKET, else $INCUS_DIR/unix.socket, else the default. */
export function defaultSocketPath(env: Env = process.env): string {
  if (env.INCUS_SOCKET) return env.INCUS_SOCKET;
  return join(env.INCUS_DIR || DEFAULT_INCUS_DIR, 'unix.socket');
}

/** The incus CLI's config directory: $INCUS_CONF, else ~/.config/incus. */
function cliConfigDir(env: Env = process.env): string {
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

/** The CLI's config.yml, checked for the shape used here: a malformed file is an InputError naming it. */
function readCliConfig(configDir: string): CliConfig {
  const file = join(configDir, 'config.yml');
  if (!existsSync(file)) return {};
  const parsed: unknown = parseYamlText(file, readInputFile(file, 'the incus CLI config (YAML)'));
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new InputError(file, '(top level)', 'expected a mapping (default-remote, remotes)');
  const remotes = 'remotes' in parsed ? parsed.remotes : undefined;
  if (remotes === undefined || remotes === null) return {};
  if (typeof remotes !== 'object' || Array.isArray(remotes))
    throw new InputError(file, 'remotes', 'expected a mapping of remote names to {addr, protocol, …}');
  for (const [name, r] of Object.entries(remotes)) {
    if (!r || typeof r !== 'object' || Array.isArray(r)) throw new InputError(file, `remotes.${name}`, 'expected a mapping with addr');
    const { addr, protocol, project } = r as CliRemote; // cast: an object; each field's type is checked on the next lines
    if (addr !== undefined && typeof addr !== 'string')
      throw new InputError(file, `remotes.${name}.addr`, 'expected an address (text, https://… or unix://…)');
    if (protocol !== undefined && typeof protocol !== 'string')
      throw new InputError(file, `remotes.${name}.protocol`, 'expected text (incus, simplestreams, oci)');
    if (project !== undefined && typeof project !== 'string')
      throw new InputError(file, `remotes.${name}.project`, 'expected a project name (text)');
  }
  return { remotes: remotes as Record<string, CliRemote> }; // cast: every entry was checked in the loop above
}

/** A PEM file the TLS connection will use, checked now so garbage is a clear error, not an OpenSSL one at connect. */
function readPem(file: string, kind: 'certificate' | 'key'): Buffer | undefined {
  if (!existsSync(file)) return undefined;
  const pem = Buffer.from(readInputFile(file, `a PEM ${kind}`));
  try {
    if (kind === 'certificate') new X509Certificate(pem);
    else createPrivateKey(pem);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^error:[0-9A-F]+:/, '') : String(e);
    throw new InputError(file, '', `expected a PEM ${kind} (-----BEGIN …-----), got something OpenSSL cannot read (${why})`);
  }
  return pem;
}

/** Incus's default HTTPS port: the incus CLI adds it to an address given without one (`incus remote add`). */
const DEFAULT_INCUS_PORT = 8443;

/**
 * An https:// remote address in one canonical form — lowercase host, explicit port (8443 when
 * none), no path or trailing slash — so `https://Host:8443/` finds the pin of `https://host:8443`.
 * Throws IncusError for what is not an https URL with a host.
 */
function normaliseRemoteUrl(addr: string): string {
  let url: URL;
  try {
    url = new URL(addr);
  } catch {
    throw new IncusError(`expected an https://host[:port] address, got ${JSON.stringify(addr)} (not a valid URL)`);
  }
  if (url.protocol !== 'https:') throw new IncusError(`expected an https://host[:port] address, got ${JSON.stringify(addr)}`);
  if (!url.hostname) throw new IncusError(`expected an https://host[:port] address with a host, got ${JSON.stringify(addr)}`);
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw new IncusError(`expected an https://host[:port] address without user, path or query, got ${JSON.stringify(addr)}`);
  }
  // URL drops :443 (https's default); an Incus address without a port means 8443.
  const explicit443 = /^https:\/\/(\[[^\]]*\]|[^/:?#]*):443(?:[/?#]|$)/i.test(addr.trim());
  const port = url.port || (explicit443 ? '443' : String(DEFAULT_INCUS_PORT));
  return `https://${url.hostname.toLowerCase()}:${port}`;
}

/** The normalised form of a configured address, or undefined when it is not an https URL. */
const normalisedOrUndefined = (addr: string | undefined): string | undefined => {
  if (!addr) return undefined;
  try {
    return normaliseRemoteUrl(addr);
  } catch {
    return undefined;
  }
};

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
  if (!/^https:\/\//i.test(addr)) {
    throw new IncusError(`unsupported Incus remote address ${JSON.stringify(addr)} (want https:// or unix://)`);
  }
  const url = normaliseRemoteUrl(addr);
  const cert = readPem(join(configDir, 'client.crt'), 'certificate');
  const key = readPem(join(configDir, 'client.key'), 'key');
  // One without the other sends no client certificate: the server would answer "not trusted",
  // hiding that a file is missing.
  if (cert && !key)
    throw new InputError(
      join(configDir, 'client.key'),
      '',
      `file not found (expected the private key of ${join(configDir, 'client.crt')}: a client certificate is not sent without its key)`,
    );
  if (key && !cert)
    throw new InputError(
      join(configDir, 'client.crt'),
      '',
      `file not found (expected the client certificate of ${join(configDir, 'client.key')}: a key is not sent without its certificate)`,
    );
  const ca = name ? readPem(join(configDir, 'servercerts', `${name}.crt`), 'certificate') : undefined;
  return { url, ...(cert ? { cert } : {}), ...(key ? { key } : {}), ...(ca ? { ca } : {}) };
}

/** Turn `--remote` (or nothing, for the local daemon) into client options. */
export function resolveConnection(opts: ResolveOptions = {}): IncusConnectOptions {
  const env = opts.env ?? process.env;
  const configDir = opts.configDir ?? cliConfigDir(env);
  const withProject = (o: IncusConnectOptions, project?: string): IncusConnectOptions =>
    (opts.project ?? project) ? { ...o, project: opts.project ?? project } : o;
  const remote = opts.remote;
  if (!remote) return withProject({ socketPath: defaultSocketPath(env) });
  if (/^(https|unix):/i.test(remote)) {
    // A URL: reuse the name of a configured remote with that address, for its pinned cert
    // (both sides normalised: a trailing slash, case or the default port must not lose the pin).
    const remotes = readCliConfig(configDir).remotes ?? {};
    const wanted = /^https:/i.test(remote) ? normaliseRemoteUrl(remote) : remote;
    const name = Object.entries(remotes).find(
      ([, r]) => r.addr === remote || (r.addr !== undefined && normalisedOrUndefined(r.addr) === wanted),
    )?.[0];
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
