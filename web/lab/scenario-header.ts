// A scenario's header (its loop and description) for the picker, read without parsing the whole file:
// every page of the lab lists every shipped scenario as it loads, and parsing ~60 YAML files in full
// cost that load a few hundred milliseconds. Only the two top-level entries are handed to the YAML
// parser (each with its continuation lines); a file where that finds no loop is parsed whole.
import { parse } from 'yaml';

export interface ScenarioHeader {
  loop: string;
  description: string;
}

/** The `loop:` and `description:` entries of a block-mapping YAML text, with their continuation lines. */
function headerEntries(text: string): string {
  const kept: string[] = [];
  let keep = false;
  for (const line of text.split('\n')) {
    const key = /^([A-Za-z_][\w-]*)\s*:/.exec(line);
    if (key) keep = key[1] === 'loop' || key[1] === 'description';
    else if (/^\S/.test(line) && !line.startsWith('#')) keep = false;
    if (keep) kept.push(line);
  }
  return kept.join('\n');
}

function read(text: string): { loop?: unknown; description?: unknown } | null {
  try {
    return parse(text) as { loop?: unknown; description?: unknown } | null; // a mapping or not: both fields are checked below
  } catch {
    return null;
  }
}

/** Reads only the header keys, so a broken scenario still lists (its loop as '?' when none can be read). */
export function scenarioHeader(text: string): ScenarioHeader {
  const quick = read(headerEntries(text));
  const doc = typeof quick?.loop === 'string' ? quick : read(text);
  return { loop: typeof doc?.loop === 'string' ? doc.loop : '?', description: typeof doc?.description === 'string' ? doc.description : '' };
}
