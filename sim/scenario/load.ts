import { closeSync, fstatSync, openSync, readFileSync, constants } from 'node:fs';
import { basename } from 'node:path';
import { InputError } from './errors';
import { parseYamlText } from './load-text';
import { errorCode } from '../error-code';

/** Largest input file read (scenarios and configs are a few KB; this bounds memory and parse time). */
const MAX_INPUT_BYTES = 4 * 1024 * 1024;

/**
 * Reads an input file as text, refusing what is not a regular file: a FIFO or a device would
 * block for ever (or never end), a directory is a mistake. The file is opened non-blocking and
 * checked with fstat on the same descriptor, so nothing can swap it in between.
 */
export function readInputFile(file: string, what = 'a YAML file', maxBytes = MAX_INPUT_BYTES): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = errorCode(e);
    throw new InputError(
      file,
      '',
      code === 'ENOENT' ? `file not found (expected a path to ${what})` : `cannot read the file (${code ?? String(e)})`,
    );
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new InputError(file, '', `expected ${what}, got a directory`);
    if (!st.isFile())
      throw new InputError(
        file,
        '',
        `expected ${what}, got a ${st.isFIFO() ? 'FIFO (named pipe)' : st.isSocket() ? 'socket' : 'device'}: only regular files are read`,
      );
    if (st.size > maxBytes)
      throw new InputError(
        file,
        '',
        `expected ${what} of at most ${maxBytes / 1024 / 1024} MiB, got ${(st.size / 1024 / 1024).toFixed(1)} MiB`,
      );
    return readFileSync(fd, 'utf8');
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(file, '', `cannot read the file (${errorCode(e) ?? String(e)})`);
  } finally {
    closeSync(fd);
  }
}

/** Reads a YAML file into plain data; a missing file, a non-regular file or bad YAML is an InputError. */
export function readYamlFile(file: string): unknown {
  return parseYamlText(file, readInputFile(file));
}

export const scenarioNameOf = (file: string) => basename(file).replace(/\.ya?ml$/, '');
