// One inspection event as the one JSON text message it travels as, for every sender of loopscope's
// (`--inspect`'s socket, `real --live`'s socket): the same text whichever socket carries it.
import type { StatelyInspectionEvent } from '@statelyai/inspect';

export function inspectionText(event: StatelyInspectionEvent): string {
  return JSON.stringify(event, jsonSafe);
}

/** What JSON cannot carry as is: functions by name (as the library's safeReplacer does), bigints as text. */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'function') return { type: value.name };
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  return value;
}
