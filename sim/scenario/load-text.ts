import { parseDocument } from 'yaml';
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

/** YAML text → plain data; malformed YAML is an InputError naming the line and column. */
export function parseYamlText(file: string, text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    throw new InputErrors(doc.errors.map((e) => {
      const pos = e.linePos?.[0];
      return new InputError(file, pos ? `line ${pos.line}, column ${pos.col}` : '', `malformed YAML: ${e.message.split('\n')[0]}`);
    }));
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    // yaml throws ReferenceError for an unresolved alias and for excessive alias expansion.
    const message = e instanceof Error ? e.message : String(e);
    const unresolved = /^Unresolved alias.*: (.*)$/.exec(message)?.[1];
    const line = aliasLine(text, unresolved) ?? aliasLine(text);
    const what = unresolved !== undefined
      ? `expected an alias to an anchor defined before it (&${unresolved} … *${unresolved}), got *${unresolved} with no such anchor`
      : /Excessive alias count/.test(message)
        ? `expected at most ${MAX_ALIAS_COUNT} alias expansions (more is a YAML "alias bomb": unbounded memory)`
        : `malformed YAML: ${message}`;
    throw new InputError(file, line ? `line ${line}` : '', what);
  }
  // `&a [*a]` is valid YAML and yields a structure containing itself: no scenario can mean that.
  if (isCyclic(data)) {
    const line = aliasLine(text);
    throw new InputError(file, line ? `line ${line}` : '', 'expected no alias inside its own anchor (&a [*a] makes a value that contains itself)');
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
