import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseDocument } from 'yaml';
import { InputError, InputErrors } from './errors';

/** Reads a YAML file into plain data; a missing file or bad YAML is an InputError. */
export function readYamlFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(file, '', code === 'ENOENT' ? 'file not found (expected a path to a YAML file)' : `cannot read the file (${code ?? String(e)})`);
  }
  return parseYamlText(file, text);
}

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

export const scenarioNameOf = (file: string) => basename(file).replace(/\.ya?ml$/, '');
