import type { Document } from 'yaml';
import { isAlias, isCollection, isMap, isNode, isScalar, parseDocument, visit } from 'yaml';
import { InputError, InputErrors } from './errors';

/**
 * Aliases a document may expand. The yaml library's own default (maxAliasCount 100) is checked
 * only against each alias's resolved size; an alias to an undefined anchor or an "alias bomb"
 * throws from toJS() (ReferenceError), never through doc.errors — caught below.
 */
const MAX_ALIAS_COUNT = 100;

/** The line of a YAML source offset (1-based). */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The line of the first alias `*name` (any name when none is given). */
function aliasLine(text: string, name?: string): number | undefined {
  const target = name === undefined ? '[^\\s,\\]}]+' : name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(^|[\\s,[{:-])\\*${target}`, 'm').exec(text);
  return m ? lineOf(text, m.index + m[1]!.length) : undefined;
}

/**
 * The first mapping key that is not a scalar of text or number (`? [a, b]`, `? {a: 1}`, an alias to
 * either, `? !!binary …`): plain data has string keys only, and the yaml library would stringify
 * such a key with a warning.
 */
function nonTextKey(doc: Document): { offset: number; what: string } | undefined {
  let found: { offset: number; what: string } | undefined;
  visit(doc, {
    Pair(_, pair) {
      const key = pair.key;
      const node = isAlias(key) ? key.resolve(doc) : key;
      const what = isCollection(node)
        ? isMap(node)
          ? 'a mapping'
          : 'a list'
        : isScalar(node) && node.value !== null && typeof node.value === 'object'
          ? 'binary data'
          : undefined;
      if (what === undefined) return undefined;
      found = { offset: isNode(key) ? (key.range?.[0] ?? 0) : 0, what };
      return visit.BREAK;
    },
  });
  return found;
}

/** YAML text → plain data; malformed YAML is an InputError naming the line and column. */
export function parseYamlText(file: string, text: string): unknown {
  // logLevel error: the library's warnings go to process.emitWarning (stderr); what they warn of is
  // refused here instead, as one line.
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, logLevel: 'error' });
  if (doc.errors.length) {
    throw new InputErrors(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        return new InputError(file, pos ? `line ${pos.line}, column ${pos.col}` : '', `malformed YAML: ${e.message.split('\n')[0]}`);
      }),
    );
  }
  const key = nonTextKey(doc);
  if (key) throw new InputError(file, `line ${lineOf(text, key.offset)}`, `expected a mapping key of plain text, got ${key.what} as a key`);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    // yaml throws ReferenceError for an unresolved alias and for excessive alias expansion.
    const message = e instanceof Error ? e.message : String(e);
    const unresolved = /^Unresolved alias.*: (.*)$/.exec(message)?.[1];
    const line = aliasLine(text, unresolved) ?? aliasLine(text);
    const what =
      unresolved !== undefined
        ? `expected an alias to an anchor defined before it (&${unresolved} … *${unresolved}), got *${unresolved} with no such anchor`
        : /Excessive alias count/.test(message)
          ? `expected at most ${MAX_ALIAS_COUNT} alias expansions (more is a YAML "alias bomb": unbounded memory)`
          : `malformed YAML: ${message}`;
    throw new InputError(file, line ? `line ${line}` : '', what);
  }
  // `&a [*a]` is valid YAML and yields a structure containing itself: no scenario can mean that.
  if (isCyclic(data)) {
    const line = aliasLine(text);
    throw new InputError(
      file,
      line ? `line ${line}` : '',
      'expected no alias inside its own anchor (&a [*a] makes a value that contains itself)',
    );
  }
  return data;
}

/** Whether plain data reaches itself (only aliases can make that). */
function isCyclic(value: unknown, path = new Set<object>()): boolean {
  if (!value || typeof value !== 'object') return false;
  if (path.has(value)) return true;
  path.add(value);
  const children = value instanceof Map ? [...value.values()] : Object.values(value);
  const cyclic = children.some((c) => isCyclic(c, path));
  path.delete(value);
  return cyclic;
}
