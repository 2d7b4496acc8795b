// The files `loopscope lab <file…>` hands to the page: each read once at start and checked the way
// the lab will check it, so a file the lab could not open stops the command before anything is served.
import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { parseScenarioText } from '../../sim/loops/registry';
import { InputError, InputErrors } from '../../sim/scenario/errors';
import { scenarioNameOf } from '../../sim/scenario/load';
import { parseAnyTraceText } from '../../sim/itf/read';
import { traceStateProblem } from '../../web/lab/trace-check';
import type { PageFile } from '../../web/lab/page-files';
import { LAB_FILES_ELEMENT } from '../../web/lab/page-files';

const EXPECTED = 'expected a scenario (.yaml) or a trace (.json: sim --json, check --out, real --out)';
const TRACE =
  'expected a loopscope trace (the JSON of sim --json, check --out or real --out, or ITF from check --trace-format itf or trace --to itf)';

/** What a file is meant to be: by its extension, or (another extension: a guess) by its first character. */
function kindOf(name: string, text: string): { kind: PageFile['kind']; guessed: boolean } {
  const ext = extname(name).toLowerCase();
  if (ext === '.json') return { kind: 'trace', guessed: false };
  if (ext === '.yaml' || ext === '.yml') return { kind: 'scenario', guessed: false };
  return { kind: text.trimStart().startsWith('{') ? 'trace' : 'scenario', guessed: true };
}

function readText(name: string): string {
  let isFile: boolean;
  try {
    isFile = statSync(name).isFile();
  } catch {
    throw new InputError(name, '', `${EXPECTED}, got no such file`);
  }
  if (!isFile) throw new InputError(name, '', `${EXPECTED}, got a directory`);
  try {
    return readFileSync(name, 'utf8');
  } catch (e) {
    throw new InputError(
      name,
      '',
      `${EXPECTED}, got a file that cannot be read (${e instanceof Error && 'code' in e ? String(e.code) : 'unreadable'})`,
    );
  }
}

/**
 * A scenario's name as the lab will list it, or the first problem. The lab's parser (the browser-safe
 * registry) is used on purpose: a controller or policy module cannot run in the page, and this command
 * never installs their Node loaders, so such a scenario is refused here with the lab's own sentence.
 */
function scenarioOf(name: string, text: string): { id: string; loop: string } {
  try {
    const { entry, scenario } = parseScenarioText(name, scenarioNameOf(name), text);
    return { id: scenario.name, loop: entry.id };
  } catch (e) {
    // One line: the first problem (`loopscope sim <file>` lists them all).
    if (e instanceof InputErrors && e.errors.length > 0) {
      const first = e.errors[0]!;
      const more = e.errors.length > 1 ? ` (and ${e.errors.length - 1} more: loopscope sim ${name} lists them)` : '';
      throw new InputError(first.file, first.field, `${first.expected}${more}`);
    }
    throw e;
  }
}

function checkTrace(name: string, text: string): void {
  const result = parseAnyTraceText(text);
  const problem = result.ok ? traceStateProblem(result.trace) : result.error;
  if (problem !== null) throw new InputError(name, '', `${TRACE}: ${problem}`);
}

/** A file for the page, and (a scenario) the loop it names: the printed URL opens it by both. */
export interface LabFile {
  page: PageFile;
  loop?: string;
}

/** Every named file, read and checked (a bad one throws an InputError naming it); scenarios carry their name. */
export function readLabFiles(names: readonly string[]): LabFile[] {
  const files: LabFile[] = [];
  for (const name of names) {
    const text = readText(name);
    const { kind, guessed } = kindOf(name, text);
    if (guessed) {
      // Neither extension: say both were expected, then why the guess failed.
      try {
        files.push(checked(files, name, text, kind));
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        throw new InputError(
          name,
          '',
          `${EXPECTED}; read as a ${kind}: ${e.message.startsWith(`${name}: `) ? e.message.slice(name.length + 2) : e.message}`,
        );
      }
    } else files.push(checked(files, name, text, kind));
  }
  return files;
}

/** One file checked as `kind` (against the files before it: two scenarios of one name would clash in the list). */
function checked(files: readonly LabFile[], name: string, text: string, kind: PageFile['kind']): LabFile {
  if (kind === 'trace') {
    checkTrace(name, text);
    return { page: { name, kind, text } };
  }
  const { id, loop } = scenarioOf(name, text);
  const same = files.find((f) => f.page.kind === 'scenario' && f.page.id === id);
  if (same)
    throw new InputError(
      name,
      'name',
      `expected a scenario name no other file given uses, got "${id}" (${same.page.name} is also "${id}")`,
    );
  return { page: { name, kind, text, id }, loop };
}

/** The page's files as the lab reads them: JSON in a script element, with no `<` (so no `</script>` can end it early). */
export function labFilesElement(files: readonly LabFile[]): string {
  return `<script id="${LAB_FILES_ELEMENT}" type="application/json">${JSON.stringify(files.map((f) => f.page)).replace(/</g, '\\u003c')}</script>`;
}

/** The lab's parameters that open the first file: a scenario by its loop and name, a trace by its number. */
export function firstFileParams(files: readonly LabFile[]): URLSearchParams {
  const p = new URLSearchParams();
  const first = files[0];
  if (first?.page.kind === 'scenario' && first.page.id !== undefined) {
    if (first.loop) p.set('loop', first.loop);
    p.set('scenario', first.page.id);
  } else if (first?.page.kind === 'trace') p.set('trace', '0');
  return p;
}
