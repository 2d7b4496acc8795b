// The ITF checks the ITF tests share: the JSON schema written from ADR-015 (test/fixtures/itf/),
// validated with ajv (draft-07, the draft the schema declares), and what a schema cannot say.
import { Ajv } from 'ajv';
import { expect } from 'vitest';
import SCHEMA from '../fixtures/itf/itf.schema.json';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const ajv = new Ajv({ allErrors: false, strict: true });
const validate = ajv.compile(SCHEMA);
/** The schema's own definitions, to validate one value (an ITF expression) rather than a trace. */
const validateExpr = ajv.compile({ $schema: SCHEMA.$schema, definitions: SCHEMA.definitions, $ref: '#/definitions/expr' });

/** The first schema violation of an ITF trace, or null. */
export function itfSchemaProblem(doc: unknown): string | null {
  if (validate(doc)) return null;
  const e = validate.errors?.[0];
  return e ? `${e.instancePath || '(top level)'} ${e.message ?? ''}` : 'invalid';
}

/** The first schema violation of an ITF expression, or null. */
export function itfExprProblem(value: unknown): string | null {
  if (validateExpr(value)) return null;
  const e = validateExpr.errors?.[0];
  return e ? `${e.instancePath || '(top level)'} ${e.message ?? ''}` : 'invalid';
}

/** ADR-015 rules a schema cannot state: every state sets every variable in `vars`; `loop` is a state's index. */
export function itfRuleProblem(doc: unknown): string | null {
  if (!isObject(doc) || !Array.isArray(doc.vars) || !Array.isArray(doc.states)) return 'not a trace object';
  const { vars, states, loop } = doc;
  for (const [i, state] of states.entries()) {
    const missing = vars.find((v) => !isObject(state) || typeof v !== 'string' || !(v in state));
    if (missing !== undefined) return `states[${i}] does not set ${String(missing)}`;
  }
  if (typeof loop === 'number' && loop >= states.length) return `loop ${loop} is not the index of a state`;
  return null;
}

/** Every JSON number anywhere in the document that is not an integer (ITF has none). */
export function nonIntegers(doc: unknown, path = ''): string[] {
  if (typeof doc === 'number') return Number.isInteger(doc) ? [] : [`${path}: ${doc}`];
  if (Array.isArray(doc)) return doc.flatMap((v: unknown, i) => nonIntegers(v, `${path}[${i}]`));
  if (isObject(doc)) return Object.entries(doc).flatMap(([k, v]) => nonIntegers(v, `${path}.${k}`));
  return [];
}

/** Where the document holds a JSON number at all (ITF allows one only in #meta and as `loop`). */
export function jsonNumbers(doc: unknown, path = ''): string[] {
  if (typeof doc === 'number') return [path];
  if (Array.isArray(doc)) return doc.flatMap((v: unknown, i) => jsonNumbers(v, `${path}[${i}]`));
  if (isObject(doc)) return Object.entries(doc).flatMap(([k, v]) => jsonNumbers(v, `${path}.${k}`));
  return [];
}

/** JSON numbers outside a state's #meta.index and `loop`: none in the traces loopscope writes. */
export const numbersOutsideMeta = (doc: unknown) => jsonNumbers(doc).filter((p) => !/^\.states\[\d+\]\.#meta\.index$|^\.loop$/.test(p));

/** An ITF trace loopscope wrote: valid by the schema and ADR-015's other rules, no JSON number but where ITF allows one. */
export function expectValidItf(doc: unknown, label?: string): void {
  expect(itfSchemaProblem(doc), label).toBeNull();
  expect(itfRuleProblem(doc), label).toBeNull();
  expect(nonIntegers(doc), label).toEqual([]);
  expect(numbersOutsideMeta(doc), label).toEqual([]);
}
