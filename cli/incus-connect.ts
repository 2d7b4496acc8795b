// `loopscope real …`: connect to Incus and check, before anything else (dry runs too), that the
// remote answers, trusts us, and has the project — so a typo is one clear line, not an empty
// world ("0 pods, would create 2" in a project that does not exist).
// Exit codes: 2 for what the user named wrongly (--remote, --project, a malformed CLI config or
// certificate file); 1 for the environment (daemon unreachable, TLS, client not trusted).
import { InputError } from '../sim/scenario/errors';
import type { IncusConnectOptions } from '../real/incus';
import { IncusClient, IncusConnectionError, IncusError, IncusNotFoundError, resolveConnection, trustHint } from '../real/incus';
import { ExitError } from './exit';
import { UsageError } from './usage';

const where = (o: IncusConnectOptions) => ('socketPath' in o ? o.socketPath : o.url);

/** An Incus failure as the CLI reports it: one line, exit 1 (the daemon said no or is unreachable). */
export function incusFailure(e: unknown, context: string): never {
  if (e instanceof IncusConnectionError) throw new ExitError(1, e.message);
  if (e instanceof IncusError) throw new ExitError(1, `${context}: ${e.message}`);
  throw e;
}

export async function connectChecked(opts: { remote?: string; project?: string }): Promise<IncusClient> {
  let options: IncusConnectOptions;
  try {
    options = resolveConnection({
      ...(opts.remote ? { remote: opts.remote } : {}),
      ...(opts.project !== undefined ? { project: opts.project } : {}),
    });
  } catch (e) {
    if (e instanceof IncusError) throw new UsageError('--remote', e.message);
    throw e; // InputError (malformed config.yml or certificate file): exit 2 as it is
  }
  if (opts.project !== undefined && !/^[^/\s?#&]{1,63}$/.test(opts.project)) {
    throw new UsageError(
      '--project',
      `expected an Incus project name (1–63 characters, no slash, space, ?, # or &), got "${opts.project}"`,
    );
  }
  let client: IncusClient;
  try {
    client = await IncusClient.connect(options);
  } catch (e) {
    return incusFailure(e, `Incus at ${where(options)}`);
  }
  try {
    const info = await client.server();
    if ('url' in options && info.auth !== 'trusted') {
      throw new ExitError(1, `Incus at ${options.url} answers but does not trust this client: ${trustHint(client.clientFingerprint)}`);
    }
    if (options.project !== undefined) {
      try {
        await client.get(`/1.0/projects/${encodeURIComponent(options.project)}`, { project: null });
      } catch (e) {
        if (!(e instanceof IncusNotFoundError)) throw e;
        const known = await client
          .get<string[]>('/1.0/projects', { project: null })
          .then((l) => l.map((p) => p.replace(/^\/1\.0\/projects\//, '')))
          .catch(() => []);
        const source = opts.project !== undefined ? '--project' : `the remote's project (${opts.remote ?? 'local'})`;
        throw new UsageError(
          source,
          `expected a project of ${where(options)} (known: ${known.map(decodeURIComponent).join(', ') || 'none visible'}), got "${options.project}"`,
        );
      }
    }
    return client;
  } catch (e) {
    await client.close();
    if (e instanceof ExitError || e instanceof UsageError || e instanceof InputError) throw e;
    return incusFailure(e, `Incus at ${where(options)}`);
  }
}
