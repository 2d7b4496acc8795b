// Reads a real incus-hpa trace for `loopscope conform`: the trace schema (sim/trace-schema.ts), then
// each frame's I/O record (sim/trace-io.ts), then the policy module it names. Bad input is an
// InputError naming the file and the field (exit 2).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { HpaConfig, ModulePolicy, ModulePolicyId, PolicyModules } from '../../machines/incus-hpa';
import { isModulePolicy } from '../../machines/incus-hpa';
import { InputError } from '../scenario/errors';
import { readInputFile } from '../scenario/load';
import type { Trace } from '../trace';
import type { HpaFrameIo } from '../trace-io';
import { hpaFrameIoSchema } from '../trace-io';
import { parseTrace } from '../trace-schema';
import { MODULE_TIMEOUT_MS } from '../user-controller/hook';
import { loadPolicySandbox } from '../user-controller/policy-sandbox';

/** A real run of weeks is large: the trace may be bigger than a scenario. */
const MAX_TRACE_BYTES = 256 * 1024 * 1024;

export interface RealTrace {
  trace: Trace;
  /** frames[i].io, validated (undefined where a frame has none). */
  ios: (HpaFrameIo | undefined)[];
  start: HpaConfig;
}

const NOT_REAL =
  'expected the start record { kind: "start", config } that `loopscope real` writes on its first frame: ' +
  'this is not the trace of a real run with I/O records (a simulator trace, one written before conform existed, or one cut by a frame limit)';

export function parseRealTrace(file: string, doc: unknown): RealTrace {
  const parsed = parseTrace(doc);
  if (!parsed.ok) {
    const cut = parsed.error.indexOf(': ');
    throw new InputError(file, cut > 0 ? parsed.error.slice(0, cut) : '', cut > 0 ? parsed.error.slice(cut + 2) : parsed.error);
  }
  const { trace } = parsed;
  if (trace.loop !== 'incus-hpa')
    throw new InputError(file, 'loop', `expected incus-hpa (conform replays real runs of the Incus HPA), got "${trace.loop}"`);
  const frames = (doc as { frames: { io?: unknown }[] }).frames; // cast: the trace schema parsed this document just above
  const ios = frames.map((f, i) => {
    if (f.io === undefined) return undefined;
    const io = hpaFrameIoSchema.safeParse(f.io);
    if (!io.success) {
      const issue = io.error.issues[0]!;
      throw new InputError(file, [`frames[${i}].io`, ...issue.path.map(String)].join('.'), issue.message);
    }
    return io.data;
  });
  const first = ios[0];
  if (first?.kind !== 'start') throw new InputError(file, 'frames[0].io', NOT_REAL);
  return { trace, ios, start: first.config };
}

export function readRealTrace(file: string): RealTrace {
  const text = readInputFile(file, 'a trace JSON file (loopscope real --out)', MAX_TRACE_BYTES);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new InputError(
      file,
      '',
      `expected JSON (a trace written by loopscope real --out): ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return parseRealTrace(file, doc);
}

/**
 * The policy modules the run used (its start config and live edits): conform replays the decisions
 * with them. A module is found as the run found it (its path relative to the working directory), or
 * at `override` when given. conform() replays with what this returns.
 */
export function loadTracePolicies(file: string, real: RealTrace, override?: string): PolicyModules {
  const ids = new Map<ModulePolicyId, string>();
  real.ios.forEach((io, i) => {
    const policy = io?.kind === 'start' || io?.kind === 'config' ? io.config.policy : undefined;
    if (policy && isModulePolicy(policy) && !ids.has(policy)) ids.set(policy, `frames[${i}].io.config.policy`);
  });
  const modules = new Map<string, ModulePolicy>();
  for (const [id, field] of ids) {
    const path = override !== undefined ? resolve(override) : resolve(id.slice('module:'.length));
    if (!existsSync(path)) {
      throw new InputError(
        file,
        field,
        `expected the policy module ${path} to be readable: the run's policy is ${id}, and conform replays its decisions with it ` +
          '(run conform from the directory the run was started in, or pass --policy-module <file>)',
      );
    }
    const sandbox = loadPolicySandbox(path, id, file, field, MODULE_TIMEOUT_MS);
    modules.set(id, { decide: sandbox.decide, peek: sandbox.peek });
  }
  return modules;
}
