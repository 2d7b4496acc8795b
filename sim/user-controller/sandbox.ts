import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { COMPILED } from '../compiled';
import { InputError } from '../scenario/errors';
import { isolate, readModule, transpile } from './isolate';

/**
 * A user's controller module, run isolated (isolate.ts: its own V8 context, JSON in and out, no
 * files, network, timers or eval, a time limit per call). It imports only 'loopscope/controller'
 * (sim/user-controller/api.ts, evaluated inside) and can only use the client; promises are drained
 * inside the time limit, so an async reconcile that awaits the client works and one that awaits
 * anything else is reported, not waited for.
 */

const API_SPECIFIER = 'loopscope/controller';

/** What one reconcile gave back, before it is turned into the machine's Plan. */
export type SandboxOutcome =
  | { kind: 'ok'; result: unknown; writes: unknown[]; logs: string[] }
  | { kind: 'error' | 'terminal' | 'panic'; message: string; writes: unknown[]; logs: string[] };

export interface ControllerSandbox {
  /** The module's `controller` export (validated by the caller). */
  spec: unknown;
  reconcile(request: { namespace: string; name: string }, objects: unknown[]): SandboxOutcome;
}

// Compiled, the package carries the API already transpiled; from source it is transpiled here.
const API_JS = COMPILED?.sandboxApis.controller ?? transpile(readFileSync(new URL('./api.ts', import.meta.url), 'utf8'), 'api.ts', 'ts');

/** Runs inside the context after the module loaded: defines __run, which reconciles one request
 * from __input (JSON) into __output (JSON). */
const BODY = `
  const api = apis[${JSON.stringify(API_SPECIFIER)}];
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
`;

/** Loads a module file into a fresh sandbox. Problems with the file are InputErrors naming `field`. */
export function loadControllerSandbox(file: string, scenarioFile: string, field: string, timeoutMs: number): ControllerSandbox {
  const moduleJs = readModule(file, scenarioFile, field, 'controller module');
  const box = isolate(
    { what: 'a controller module', apis: { [API_SPECIFIER]: API_JS }, moduleJs, body: BODY },
    file,
    scenarioFile,
    field,
    timeoutMs,
  );
  const { context } = box;
  if (context.__hasReconcile !== true)
    throw new InputError(scenarioFile, field, `expected the module ${file} to export a function reconcile(request, client)`);
  const spec: unknown = JSON.parse(String(context.__spec));
  const run = new vm.Script('__run(__input)', { filename: `${file} (reconcile)` });

  return {
    spec,
    reconcile(request, objects) {
      context.__input = JSON.stringify({ request, objects });
      const called = box.call(run);
      if (called.kind === 'timeout')
        return {
          kind: 'panic',
          message: `reconcile did not return within ${timeoutMs} ms (a hang or a loop that does not end)`,
          writes: [],
          logs: [],
        };
      if (called.kind === 'threw') return { kind: 'panic', message: called.message, writes: [], logs: [] };
      const output = context.__output;
      if (typeof output !== 'string') {
        return {
          kind: 'panic',
          message: 'reconcile returned a promise that never settled: a controller module may await only the client (no timers, no I/O)',
          writes: [],
          logs: [],
        };
      }
      return JSON.parse(output) as SandboxOutcome; // cast: unchecked: the sandbox's bootstrap writes a SandboxOutcome, but the module's code shares its context
    },
  };
}
