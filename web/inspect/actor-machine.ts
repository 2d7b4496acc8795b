import type { AnyStateMachine } from 'xstate';
import { createMachine } from 'xstate';

export type DefinitionMachine = { kind: 'machine'; machine: AnyStateMachine } | { kind: 'none' } | { kind: 'error'; error: string };

/** Machines read, by definition text (bounded: an app may send many). */
const made = new Map<string, DefinitionMachine>();
const MAX_MADE = 200;

/**
 * The machine an actor's definition describes: the config the app sent (functions arrive as
 * {type: name}) made a machine again with xstate's createMachine. Its actions, guards and actors are
 * names the page does not have: fine, the machine is only read for its states and transitions, never
 * run. A promise or callback actor sends {id} alone (no states): 'none', listed without a chart.
 */
export function definitionMachine(definition: string | undefined): DefinitionMachine {
  if (definition === undefined) return { kind: 'none' };
  // The page asks on every render, and an app registers the same machine for each of its actors: read each text once.
  const known = made.get(definition);
  if (known) return known;
  const result = readDefinition(definition);
  if (made.size >= MAX_MADE) made.delete(made.keys().next().value ?? '');
  made.set(definition, result);
  return result;
}

function readDefinition(definition: string): DefinitionMachine {
  let config: unknown;
  try { config = JSON.parse(definition); } catch { return { kind: 'error', error: 'the definition is not JSON' }; }
  if (typeof config !== 'object' || config === null || !('states' in config) || typeof config.states !== 'object' || config.states === null) return { kind: 'none' };
  try {
    const machineConfig = config as Parameters<typeof createMachine>[0]; // parsed JSON: createMachine checks what it reads (targets, initial states) and throws with a sentence when wrong
    return { kind: 'machine', machine: createMachine(machineConfig) };
  } catch (e) {
    return { kind: 'error', error: e instanceof Error ? e.message : String(e) };
  }
}

/** A snapshot's value as the dotted path of its active leaf: "checkout" / {checkout: "paying"} → "checkout.paying". */
export function dottedValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return '';
  // A parallel state has several regions: the chart lights the first one's path (the value is shown in full beside it).
  const [key, inner] = Object.entries(value)[0] ?? [];
  if (key === undefined) return '';
  const rest = dottedValue(inner);
  return rest ? `${key}.${rest}` : key;
}
