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
  try {
    config = JSON.parse(definition);
  } catch {
    return { kind: 'error', error: 'the definition is not JSON' };
  }
  if (typeof config !== 'object' || config === null || !('states' in config) || typeof config.states !== 'object' || config.states === null)
    return { kind: 'none' };
  try {
    const machineConfig = config as Parameters<typeof createMachine>[0]; // parsed JSON: createMachine checks what it reads (targets, initial states) and throws with a sentence when wrong
    return { kind: 'machine', machine: createMachine(machineConfig) };
  } catch (e) {
    return { kind: 'error', error: e instanceof Error ? e.message : String(e) };
  }
}

/** A snapshot's value as the dotted paths of its active leaves: "checkout" / {checkout: "paying"} → ["checkout.paying"];
 * a parallel state, one path per region: {p: {a: "x", b: "y"}} → ["p.a.x", "p.b.y"]. */
export function statePaths(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const below = statePaths(inner);
    return below.length ? below.map((p) => `${key}.${p}`) : [key];
  });
}

/** The first of them (the chart's `state`; the others are lit too); '' when the value names no state. */
export const dottedValue = (value: unknown): string => statePaths(value)[0] ?? '';
