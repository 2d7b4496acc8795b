// `loopscope lab`'s work, loaded only when the command runs: check the options and files, find the
// built lab, serve it until a signal, print the one URL that opens the first file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '../../web/i18n/messages';
import { ExitError } from '../exit';
import { LAB_DIR } from '../package-root';
import { UsageError } from '../usage';
import { firstFileParams, labFilesElement, readLabFiles } from './files';
import type { LabInspect } from './lab-inspect';
import { parseInspectOptions, startLabInspect } from './lab-inspect';
import type { LabOptions } from './options';
import { DEFAULT_LAB_PORT } from './options';
import type { LabServer } from './serve';
import { injectIntoIndex, startLabServer } from './serve';
import { isOneOf } from '../../sim/one-of';

export const NOT_BUILT = 'the lab is not built: run npm run build (or npm start in a clone)';

/** The built lab to serve: the package's, or LOOPSCOPE_LAB_DIR's (another build: the tests build a fresh one). */
const labDir = (): string => process.env.LOOPSCOPE_LAB_DIR || LAB_DIR;

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw new UsageError('--port', `expected a port number from 0 to 65535 (0: any free port), got "${text}"`);
  return Number(text);
}

/** Listens on the asked port, or on the default one and any free one if that is taken. */
async function listen(
  dir: string,
  host: string,
  port: number | undefined,
  embedded: string,
  inspect: LabInspect | undefined,
): Promise<LabServer> {
  const upgrade = inspect ? { upgrade: inspect.upgrade } : {};
  try {
    return await startLabServer({ labDir: dir, host, port: port ?? DEFAULT_LAB_PORT, embedded, ...upgrade });
  } catch (e) {
    const code = e instanceof Error && 'code' in e ? String(e.code) : '';
    if (code === 'EADDRINUSE' && port === undefined) return startLabServer({ labDir: dir, host, port: 0, embedded, ...upgrade });
    if (code === 'EADDRINUSE') throw new ExitError(1, `--port ${port}: in use by another program (--port 0 takes any free port)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      throw new UsageError('--host', `expected an address of this machine, got "${host}" (${code})`);
    if (code === 'EACCES') throw new ExitError(1, `--port ${port}: not allowed to listen there (EACCES; ports below 1024 need privileges)`);
    throw e;
  }
}

/** The address as a URL's host (an IPv6 address in brackets). */
const urlHost = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** Resolves when SIGINT or SIGTERM arrives (after the server has stopped): the command then exits 0. */
function untilSignal(server: LabServer, inspect: LabInspect | undefined): Promise<void> {
  return new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void Promise.all([server.close(), inspect?.close()]).then(() => done());
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function runLab(names: readonly string[], opts: LabOptions): Promise<void> {
  // Every check first: bad input serves nothing.
  if (!isOneOf(LANGUAGES, opts.lang)) throw new UsageError('--lang', `expected one of ${LANGUAGES.join(', ')}, got "${opts.lang}"`);
  const port = parsePort(opts.port);
  if (!opts.host.trim()) throw new UsageError('--host', 'expected an address to listen on, e.g. 127.0.0.1');
  const inspectOptions = parseInspectOptions(opts);
  const files = readLabFiles(names);
  const dir = labDir();
  const index = join(dir, 'index.html');
  if (!existsSync(index)) throw new ExitError(1, NOT_BUILT);
  const fileElement = files.length ? labFilesElement(files) : '';
  try {
    injectIntoIndex(readFileSync(index, 'utf8'), fileElement);
  } catch (e) {
    throw new ExitError(1, `${index}: ${e instanceof Error ? e.message : String(e)}; ${NOT_BUILT}`);
  }
  const inspect = inspectOptions ? await startLabInspect(inspectOptions) : undefined;
  const embedded = inspect ? [fileElement, inspect.element].filter(Boolean).join('\n') : fileElement;

  let server: LabServer;
  try {
    server = await listen(dir, opts.host, port, embedded, inspect);
  } catch (e) {
    await inspect?.close();
    throw e;
  }
  const params = firstFileParams(files);
  if (opts.presenter) params.set('presenter', '1');
  if (opts.lang !== 'en') params.set('lang', opts.lang);
  const query = params.toString();
  const base = `http://${urlHost(opts.host)}:${server.port}/`;
  // The handlers go on before the URL is printed: a caller that stops the lab as soon as it reads the URL
  // must find them there (otherwise the signal's default action kills the process, exit code null).
  const stopped = untilSignal(server, inspect);
  process.stdout.write(`lab: ${base}${query ? `?${query}` : ''}\n`);
  inspect?.announce(
    `${base}?${new URLSearchParams({ inspect: '1', ...(opts.lang !== 'en' ? { lang: opts.lang } : {}) }).toString()}`,
    server.port,
  );
  await stopped;
}
