// A note as a message: a key of a loop's catalog and its parameters (what was observed, compared,
// decided, or what a fault did). The simulator renders it in English for the trace's `note` (the
// CLI prints that); the lab renders the same message in the UI language (web/i18n/notes.ts).
// Browser-safe: no imports.

/** A message parameter: JSON, so a message travels in a trace file as it is. */
export type NoteParam = string | number | boolean | null | readonly NoteParam[] | { readonly [field: string]: NoteParam };
/** A key's parameters (an empty record for a key that has none). */
export type NoteParams = { readonly [name: string]: NoteParam };
/** The parameters of a key that takes none. */
export type NoParams = Record<string, never>;

/** A catalog: each key's English text from its parameters (the parameters' type is the key's own). */
export type NoteCatalog = { readonly [key: string]: (params: never) => string };

/** The parameters a catalog's key takes. */
export type ParamsOf<C extends NoteCatalog, K extends keyof C> = Parameters<C[K]>[0];

/** A message of a catalog: a key and the parameters that key takes. */
export type MessageOf<C extends NoteCatalog> = { [K in keyof C & string]: { key: K; params: ParamsOf<C, K> } }[keyof C & string];

/** A message as a trace stores it (any catalog's, or a key this version no longer knows). */
export interface StoredMessage {
  key: string;
  params: NoteParams;
}

/** The same catalog's keys in another language, each taking the English key's parameters. */
export type TranslationOf<C extends NoteCatalog> = { readonly [K in keyof C]: (params: ParamsOf<C, K>) => string };

/**
 * What the real tool itself prints (a journal line, Terraform's or Puppet's output, an Incus error, a
 * Kubernetes event): kept in English in every language. The marks never reach the trace's English
 * note (`plainText`); the lab splits on them and renders the quoted part lang="en".
 */
export const verbatim = (text: string | number): string => `⟦${text}⟧`;

/** Text with its verbatim marks removed (the English note as the trace and the CLI have it). */
export const plainText = (text: string): string => text.replace(/[⟦⟧]/g, '');

/** A typed message maker for one catalog: `message('puppet.nextRun', { span })`. */
export const messagesOf =
  <C extends NoteCatalog>() =>
  <K extends keyof C & string>(key: K, params: ParamsOf<C, K>): { key: K; params: ParamsOf<C, K> } => ({ key, params });
