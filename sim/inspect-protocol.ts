// What `loopscope lab --inspect` relays between an XState app and the lab's inspector page
// (cli/lab/inspect-relay.ts ↔ web/inspect/). Browser-safe: names and pure helpers only. In sim/,
// below both ends, as the live protocol is: the lab never imports cli/, and cli/ shares this with it.

/** Where an app sends its inspection events on the lab's own port (any path on an extra --inspect port). */
export const INSPECT_PATH = '/inspect';
/** Where the lab's page listens: the relay's history, then every message senders send. */
export const INSPECT_VIEW_PATH = '/inspect/view';
/** The id of the element the lab server writes into index.html when the relay is on (its value: the app's ws URL). */
export const INSPECT_ELEMENT = 'loopscope-inspect';

/**
 * The relay's own message, sent to a page first when it connects (before the history): how many of
 * the senders' messages were dropped before it joined because the history is bounded. Senders'
 * messages have `type` "@xstate.*"; this one's starts with "@loopscope." so it cannot be mistaken.
 */
export interface RelayHistoryNotice {
  type: '@loopscope.history';
  /** Messages received since the relay started, and how many of the oldest the history no longer holds. */
  received: number;
  dropped: number;
  /** The bounds the history is kept within. */
  maxEvents: number;
  maxBytes: number;
}

/**
 * The history as the relay sends it to a page that joins: its messages in order, many to a message
 * (one message per event would cost a page seconds to take in 10,000). Live messages come one by one.
 */
export interface RelayHistoryBatch {
  type: '@loopscope.batch';
  messages: unknown[];
}

/** How many history messages go in one batch. */
export const HISTORY_BATCH = 500;

export const isHistoryBatch = (m: unknown): m is RelayHistoryBatch =>
  typeof m === 'object' && m !== null && 'type' in m && m.type === '@loopscope.batch' && 'messages' in m && Array.isArray(m.messages);

export const isHistoryNotice = (m: unknown): m is RelayHistoryNotice =>
  typeof m === 'object' &&
  m !== null &&
  'type' in m &&
  m.type === '@loopscope.history' &&
  'dropped' in m &&
  typeof m.dropped === 'number' &&
  'received' in m &&
  typeof m.received === 'number';
