import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { InputError } from './errors';
import { parseYamlText } from './load-text';

export { parseYamlText };

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

export const scenarioNameOf = (file: string) => basename(file).replace(/\.ya?ml$/, '');
