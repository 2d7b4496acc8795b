import { parseDocument } from 'yaml';
import { InputError, InputErrors } from './errors';

/** YAML text → plain data; malformed YAML is an InputError naming the line and column. */
export function parseYamlText(file: string, text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    throw new InputErrors(doc.errors.map((e) => {
      const pos = e.linePos?.[0];
      return new InputError(file, pos ? `line ${pos.line}, column ${pos.col}` : '', `malformed YAML: ${e.message.split('\n')[0]}`);
    }));
  }
  return doc.toJS();
}
