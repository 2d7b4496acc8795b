import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import vm from 'node:vm';
import { transformSync } from 'esbuild';
import { InputError } from '../scenario/errors';

/**
 * A user's controller module, run isolated in its own V8 context (node:vm):
 * - nothing from the host is handed in — only strings cross (JSON in, JSON out) — so the module
 *   reaches no `require`, `process`, `fetch`, timers or file system: it can only use the client;
 * - `import` resolves only 'loopscope/controller' (sim/user-controller/api.ts, evaluated inside);
 * - eval / new Function are off (codeGeneration), each reconcile has a time limit, and promises
 *   are drained inside that limit (microtaskMode 'afterEvaluate'), so an async reconcile that
 *   awaits the client works and one that awaits anything else is reported, not waited for.
 * Node's vm is not a security boundary against hostile code (its docs say so); this keeps an
 * honest controller deterministic and pure, which is what the simulator needs.
 */

export const API_SPECIFIER = 'loopscope/controller';

/** What one reconcile gave back, before it is turned into the machine's Plan. */
export type SandboxOutcome =
  | { kind: 'ok'; result: unknown; writes: unknown[]; logs: string[] }
  | { kind: 'error' | 'terminal' | 'panic'; message: string; writes: unknown[]; logs: string[] };

export interface ControllerSandbox {
  /** The module's `controller` export (validated by the caller). */
  spec: unknown;
  reconcile(request: { namespace: string; name: string }, objects: unknown[]): SandboxOutcome;
}

const API_JS = transpile(readFileSync(new URL('./api.ts', import.meta.url), 'utf8'), 'api.ts', 'ts');

function transpile(source: string, file: string, loader: 'ts' | 'js'): string {
  return transformSync(source, { loader, format: 'cjs', target: 'es2022', sourcefile: file }).code;
}

/** Runs inside the context: loads the API and the user's module (CommonJS after transpiling) and
 * defines __run, which reconciles one request from __input (JSON) into __output (JSON). */
const RUNTIME = (moduleJs: string) => `
'use strict';
(() => {
  const evaluate = (body, require) => {
    const module = { exports: {} };
    body(module.exports, module, require);
    return module.exports;
  };
  // Doing what a module may not do is a crash of the controller (a panic), not an error it returned.
  class IsolationError extends Error { constructor(m) { super(m); this.name = 'IsolationError'; } }
  const api = evaluate(function (exports, module, require) { ${API_JS} }, () => { throw new Error('the API imports nothing'); });
  const require = (name) => {
    if (name === ${JSON.stringify(API_SPECIFIER)}) return api;
    throw new IsolationError('import of "' + name + '" is not allowed: a controller module runs isolated (no files, no network, no other modules; only "${API_SPECIFIER}")');
  };
  const user = evaluate(function (exports, module) { ${moduleJs} }, require);
  globalThis.__spec = JSON.stringify(user.controller ?? null);
  globalThis.__hasReconcile = typeof user.reconcile === 'function';
  const logs = [];
  globalThis.console = { log: (...a) => logs.push(a.map(String).join(' ')), info: (...a) => logs.push(a.map(String).join(' ')),
    warn: (...a) => logs.push(a.map(String).join(' ')), error: (...a) => logs.push(a.map(String).join(' ')) };
  const RUNTIME_FAULTS = ['IsolationError', 'TypeError', 'ReferenceError', 'RangeError', 'SyntaxError', 'EvalError', 'URIError'];
  const describe = (err) => {
    if (err instanceof api.TerminalError) return { kind: 'terminal', message: err.message };
    if (err instanceof Error && RUNTIME_FAULTS.includes(err.name)) return { kind: 'panic', message: err.name + ': ' + err.message };
    if (err instanceof Error) return { kind: 'error', message: err.message };
    return { kind: 'error', message: 'threw a non-Error value: ' + String(err) };
  };
  globalThis.__run = (input) => {
    const { request, objects } = JSON.parse(input);
    const { client, writes } = api.recordingClient(objects, request);
    logs.length = 0;
    globalThis.__output = undefined;
    const done = (o) => { globalThis.__output = JSON.stringify({ ...o, writes, logs: [...logs] }); };
    try {
      Promise.resolve(user.reconcile(request, client)).then((result) => done({ kind: 'ok', result: result ?? {} }), (err) => done(describe(err)));
    } catch (err) {
      done(describe(err));
    }
  };
})();
`;

/** Loads a module file into a fresh sandbox. Problems with the file are InputErrors naming `field`. */
export function loadControllerSandbox(file: string, scenarioFile: string, field: string, timeoutMs: number): ControllerSandbox {
  let source: string;
  try {
    if (!statSync(file).isFile()) throw new InputError(scenarioFile, field, `expected a regular file, got ${file}`);
    source = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(scenarioFile, field, `expected a readable controller module, cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const ext = extname(file);
  if (!['.ts', '.js', '.mjs', '.mts'].includes(ext)) throw new InputError(scenarioFile, field, `expected a .ts or .js module, got ${file}`);
  let moduleJs: string;
  try {
    moduleJs = transpile(source, file, ext === '.ts' || ext === '.mts' ? 'ts' : 'js');
  } catch (err) {
    const first = err instanceof Error ? err.message.split('\n').slice(0, 2).join(' ') : String(err);
    throw new InputError(scenarioFile, field, `expected a module that compiles: ${first}`);
  }
  const context = vm.createContext({}, { name: `controller ${file}`, codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
  try {
    vm.runInContext(RUNTIME(moduleJs), context, { filename: file, timeout: timeoutMs });
  } catch (err) {
    throw new InputError(scenarioFile, field, `expected a module that loads: ${messageOf(err)}`);
  }
  if (context.__hasReconcile !== true) throw new InputError(scenarioFile, field, `expected the module ${file} to export a function reconcile(request, client)`);
  const spec: unknown = JSON.parse(String(context.__spec));
  const run = new vm.Script('__run(__input)', { filename: `${file} (reconcile)` });

  return {
    spec,
    reconcile(request, objects) {
      context.__input = JSON.stringify({ request, objects });
      try {
        run.runInContext(context, { timeout: timeoutMs });
      } catch (err) {
        const timedOut = (err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
        const message = timedOut ? `reconcile did not return within ${timeoutMs} ms (a hang or a loop that does not end)` : messageOf(err);
        return { kind: 'panic', message, writes: [], logs: [] };
      }
      const output = context.__output;
      if (typeof output !== 'string') {
        return { kind: 'panic', message: 'reconcile returned a promise that never settled: a controller module may await only the client (no timers, no I/O)', writes: [], logs: [] };
      }
      return JSON.parse(output) as SandboxOutcome;
    },
  };
}

/** An error thrown inside the context is not a host Error: read its name and message as data. */
function messageOf(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'message' in err) {
    const name = 'name' in err ? String(err.name) : 'Error';
    return `${name}: ${String(err.message)}`;
  }
  return String(err);
}
