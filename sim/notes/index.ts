// Every loop's note catalog in one (keys are prefixed by their catalog: 'puppet.…', 'common.…'),
// the message type the note producers return, and its English text (the trace's `note`).
import type { MessageOf, NoteCatalog, NoteParams, StoredMessage } from './catalog';
import { plainText } from './catalog';
import { COMMON_NOTES } from './common';
import { CRON_NOTES } from './cron';
import { KUBERNETES_NOTES } from './kubernetes';
import { PUPPET_NOTES } from './puppet';
import { SYSTEMD_NOTES } from './systemd';
import { TERRAFORM_NOTES } from './terraform';

export const NOTES = {
  ...COMMON_NOTES,
  ...CRON_NOTES,
  ...KUBERNETES_NOTES,
  ...PUPPET_NOTES,
  ...SYSTEMD_NOTES,
  ...TERRAFORM_NOTES,
} satisfies NoteCatalog;

/** A note loopscope writes: a key of NOTES and the parameters it takes. */
export type NoteMessage = MessageOf<typeof NOTES>;

/**
 * A message rendered by a catalog's text for its key (the English catalog, or a translation of it);
 * undefined when the catalog has no such key (a trace from another version). The text keeps its
 * verbatim marks (`plainText` removes them).
 */
export function renderMessage(catalog: NoteCatalog, message: StoredMessage): string | undefined {
  if (!Object.hasOwn(catalog, message.key)) return undefined;
  // A stored message's parameters are the ones its key's text reads (the runner wrote them from the
  // same catalog; the lab falls back to the note when a trace from another version's do not fit).
  const text = catalog[message.key] as ((params: NoteParams) => string) | undefined; // see the comment above
  return text?.(message.params);
}

/** The message's English text, as the trace's `note` and the CLI have it. */
export const englishNote = (message: NoteMessage): string => plainText(renderMessage(NOTES, message) ?? '');

/**
 * A frame's note: a message of the catalog, rendered in the trace's English and in the lab's
 * language; or English text, for a loop whose notes are not yet messages (the lab translates those
 * with its note rules, web/i18n/note-rules) and for the real runner's own remarks.
 */
export type FrameNote = NoteMessage | string;

/** A frame's `note` (English) and, for a message, its `message`. */
export function noteFields(note: FrameNote | undefined): { note?: string; message?: NoteMessage } {
  if (typeof note === 'object') return { note: englishNote(note), message: note };
  return note ? { note } : {};
}
