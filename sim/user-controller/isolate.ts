import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import vm from 'node:vm';
import { transformSync } from 'esbuild';
import { InputError } from '../scenario/errors';
import { errorCode } from '../error-code';

/**
 * The isolation every user module gets (a controller module, sandbox.ts; an HPA policy module,
 * policy-sandbox.ts): its own V8 context (node:vm) into which nothing from the host is handed —
 * only strings cross (JSON in, JSON out) — so it reaches no `require`, `process`, `fetch`, timers
 * or file system; `import` resolves only the API specifiers the caller lists (evaluated inside);
 * eval / new Function are off (codeGeneration); each call has a time limit, and promises are
 * drained inside it (microtaskMode 'afterEvaluate'). Node's vm is not a security boundary against
 * hostile code (its docs say so); this keeps an honest module deterministic and pure, which is
 * what the simulator needs.
 */

export function transpile(source: string, file: string, loader: 'ts' | 'js'): string {
  return transformSync(source, { loader, format: 'cjs', target: 'es2022', sourcefile: file }).code;
}

/** A module file, read and transpiled; problems are InputErrors naming the scenario's `field`. */
export function readModule(file: string, scenarioFile: string, field: string, what: string): string {
  let source: string;
  try {
    if (!statSync(file).isFile()) throw new InputError(scenarioFile, field, `expected a regular file, got ${file}`);
    source = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(scenarioFile, field, `expected a readable ${what}, cannot read ${file}: ${errorCode(err) ?? String(err)}`);
  }
  const ext = extname(file);
  if (!['.ts', '.js', '.mjs', '.mts'].includes(ext)) throw new InputError(scenarioFile, field, `expected a .ts or .js module, got ${file}`);
  try {
    return transpile(source, file, ext === '.ts' || ext === '.mts' ? 'ts' : 'js');
  } catch (err) {
    const first = err instanceof Error ? err.message.split('\n').slice(0, 2).join(' ') : String(err);
    throw new InputError(scenarioFile, field, `expected a module that compiles: ${first}`);
  }
}

export interface IsolatedSource {
  /** What the module is, in messages: "a controller module". */
  what: string;
  /** Importable specifiers and their (transpiled, import-free) code. */
  apis: Record<string, string>;
  /** The user's module (transpiled). */
  moduleJs: string;
  /** Code run after both are loaded, in a scope holding `apis` (specifier → exports), `user`
   * (the module's exports) and `IsolationError`; it defines the globals the host calls. */
  body: string;
  /** Also take away the clock and Math.random: the module must be a function of its input. */
  deterministic?: boolean;
}

/** The runtime evaluated inside the context: CommonJS modules, a require that knows only `apis`. */
function runtime(s: IsolatedSource): string {
  const allowed = Object.keys(s.apis);
  const only = allowed.length ? `only ${allowed.map((a) => `"${a}"`).join(', ')}` : 'nothing';
  const apis = Object.entries(s.apis)
    .map(
      ([name, js]) =>
        `${JSON.stringify(name)}: evaluate(function (exports, module, require) { ${js} }, () => { throw new Error('the API imports nothing'); })`,
    )
    .join(',\n');
  // Math.random and the clock would make two runs of one seed differ; a policy keeps state in memory.
  const deterministic = s.deterministic
    ? `
  const unavailable = (what) => () => { throw new IsolationError(what + ' is not available in ${s.what}: it must be a function of its input (same seed, same trace)'); };
  Math.random = unavailable('Math.random');
  const HostDate = Date;
  globalThis.Date = new Proxy(HostDate, {
    construct: (target, args) => { if (args.length === 0) unavailable('the clock (new Date())')(); return new target(...args); },
    apply: unavailable('the clock (Date())'),
    get: (target, key) => (key === 'now' ? unavailable('the clock (Date.now)') : target[key]),
  });`
    : '';
  return `
'use strict';
(() => {
  const evaluate = (body, require) => {
    const module = { exports: {} };
    body(module.exports, module, require);
    return module.exports;
  };
  // Doing what a module may not do is a crash of the module, not an error it returned.
  class IsolationError extends Error { constructor(m) { super(m); this.name = 'IsolationError'; } }
  const apis = { ${apis} };
  const require = (name) => {
    if (Object.prototype.hasOwnProperty.call(apis, name)) return apis[name];
    throw new IsolationError('import of "' + name + '" is not allowed: ${s.what} runs isolated (no files, no network, no other modules; ${only})');
  };${deterministic}
  const user = evaluate(function (exports, module) { ${s.moduleJs} }, require);
  ${s.body}
})();
`;
}

export type CallResult = { kind: 'ok' } | { kind: 'timeout' } | { kind: 'threw'; message: string };

export interface Isolated {
  context: vm.Context;
  /** Runs `code` (a call of a global the body defined) within the time limit. */
  call(script: vm.Script): CallResult;
}

/** Loads a module into a fresh context. A module that throws while loading is an InputError naming `field`. */
export function isolate(source: IsolatedSource, file: string, scenarioFile: string, field: string, timeoutMs: number): Isolated {
  const context = vm.createContext(
    {},
    { name: `${source.what} ${file}`, codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' },
  );
  try {
    vm.runInContext(runtime(source), context, { filename: file, timeout: timeoutMs });
  } catch (err) {
    throw new InputError(scenarioFile, field, `expected a module that loads: ${messageOf(err)}`);
  }
  return {
    context,
    call(script) {
      // The limit is wall-clock time (vm's watchdog): a pause of the host — a GC, a loaded machine — can
      // push a quick call past it, and the search and its replay would then disagree about a crash. A
      // call that times out is run once more: only one that takes the limit twice (a hang) is a timeout.
      for (let attempt = 1; ; attempt++) {
        try {
          script.runInContext(context, { timeout: timeoutMs });
          return { kind: 'ok' };
        } catch (err) {
          if (errorCode(err) !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { kind: 'threw', message: messageOf(err) };
          if (attempt === 2) return { kind: 'timeout' };
        }
      }
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
