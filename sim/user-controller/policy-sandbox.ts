import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { z } from 'zod';
import type { Decision, ModulePolicyId, Policy, PolicyInput } from '../../machines/incus-hpa';
import { COMPILED } from '../compiled';
import { InputError, shorten } from '../scenario/errors';
import { isolate, readModule, transpile } from './isolate';

/**
 * A user's HPA policy module, run with the controller modules' isolation (isolate.ts: its own V8
 * context, JSON in and out, no files, network, timers or eval, a time limit per call), plus no
 * clock and no Math.random: a policy is a function of its input. It imports only
 * 'loopscope/policy' (policy-api.ts, evaluated inside) and must answer synchronously.
 */

const POLICY_API_SPECIFIER = 'loopscope/policy';

// Compiled, the package carries the API already transpiled; from source it is transpiled here.
const API_JS =
  COMPILED?.sandboxApis.policy ?? transpile(readFileSync(new URL('./policy-api.ts', import.meta.url), 'utf8'), 'policy-api.ts', 'ts');

/** Runs inside the context: __decide reads __input (JSON) and leaves the answer in __output (JSON). */
const BODY = `
  globalThis.__hasPolicy = typeof user.policy === 'function';
  const quiet = () => {};
  globalThis.console = { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet };
  globalThis.__decide = (input) => {
    globalThis.__output = undefined;
    const answer = user.policy(JSON.parse(input));
    if (answer !== null && typeof answer === 'object' && typeof answer.then === 'function') {
      throw new IsolationError('returned a promise: a policy is a synchronous pure function (no awaiting, no I/O)');
    }
    globalThis.__output = answer === undefined ? 'undefined' : JSON.stringify(answer);
  };
`;

const count = z.number().int().min(0);
const actionSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('create') }),
    z.strictObject({ kind: z.literal('delete'), name: z.string().min(1), waitForStop: z.boolean() }),
  ],
  { error: 'expected { kind: "create" } or { kind: "delete", name, waitForStop }' },
);

/** machines/incus-hpa/types.ts Decision; `policy` is loopscope's label, so the module may leave it out. */
const moduleDecisionSchema = z.strictObject({
  policy: z.string().optional(),
  running: count,
  averagePercent: z.number().nullable(),
  desired: count,
  actions: z.array(actionSchema),
  comparison: z.string(),
  verdict: z.string(),
  memory: z.strictObject({
    recommendations: z.array(z.strictObject({ at: z.number(), replicas: count })),
    state: z.json().optional(),
  }),
});

/** A policy module failing during a run: the machine backs off with this message (machine.ts decide). */
class PolicyModuleError extends Error {
  constructor(
    readonly id: string,
    readonly reason: string,
  ) {
    super(`policy ${id} ${reason}`);
    this.name = 'PolicyModuleError';
  }
}

/** A loaded module: `decide` for the machine; `peek` for frame summaries (the average the CLI and
 * the lab show), with its own hang state, so what a summary ran into never changes a decision (a
 * counterexample replayed with summaries then takes the explorer's path) — null when it fails. */
export interface PolicySandbox {
  decide: Policy;
  peek: (input: PolicyInput) => Decision | null;
}

export function loadPolicySandbox(file: string, id: ModulePolicyId, configFile: string, field: string, timeoutMs: number): PolicySandbox {
  const moduleJs = readModule(file, configFile, field, 'policy module');
  const box = isolate(
    { what: 'a policy module', apis: { [POLICY_API_SPECIFIER]: API_JS }, moduleJs, body: BODY, deterministic: true },
    file,
    configFile,
    field,
    timeoutMs,
  );
  const { context } = box;
  if (context.__hasPolicy !== true)
    throw new InputError(configFile, field, `expected the module ${file} to export a function policy(input) returning a Decision`);
  const run = new vm.Script('__decide(__input)', { filename: `${file} (policy)` });

  const caller = (): Policy => {
    // After a hang the context was interrupted mid-call, its state unknown: it is not called again.
    let hung: string | undefined;
    return (input) => {
      if (hung) throw new PolicyModuleError(id, `${hung}; it is not called again after a hang`);
      context.__input = JSON.stringify(input);
      const called = box.call(run);
      if (called.kind === 'timeout') {
        hung = `did not return within ${timeoutMs} ms (a hang or a loop that does not end)`;
        throw new PolicyModuleError(id, hung);
      }
      if (called.kind === 'threw') throw new PolicyModuleError(id, `threw ${called.message}`);
      const output = String(context.__output);
      if (output === 'undefined')
        throw new PolicyModuleError(
          id,
          'returned undefined: expected a Decision { running, averagePercent, desired, actions, comparison, verdict, memory }',
        );
      const parsed = moduleDecisionSchema.safeParse(JSON.parse(output));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const where = issue.path.length ? `${issue.path.map(String).join('.')}: ` : '';
        throw new PolicyModuleError(id, `returned what is not a Decision: ${where}${issue.message} (got ${shorten(output)})`);
      }
      const { policy: _label, memory, ...rest } = parsed.data;
      return {
        ...rest,
        policy: id,
        memory: { recommendations: memory.recommendations, ...(memory.state !== undefined ? { state: memory.state } : {}) },
      };
    };
  };
  const peek = caller();
  return {
    decide: caller(),
    peek: (input) => {
      try {
        return peek(input);
      } catch {
        return null;
      }
    },
  };
}
