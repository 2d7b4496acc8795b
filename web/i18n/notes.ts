import { NOTES, renderMessage } from '../../sim/notes';
import { plainText } from '../../sim/notes/catalog';
import type { Frame } from '../../sim/trace';
import type { Language } from './messages';
import { NOTES_PT } from './note-texts';
import { NOUNS, count } from './plural';
import { HPA, HPA_ALGORITHM } from './note-rules/hpa';
import { KUBERNETES } from './note-rules/kubernetes';
import type { Rule } from './note-rules/types';
import { applyAll, firstMatch } from './note-rules/types';

/**
 * A frame's note in the UI language. A note loopscope writes is a message (`frame.message`: a key of
 * the note catalog, sim/notes, and its parameters), rendered here by the language's text for its
 * key (note-texts/); what the real tool prints (a journal line, Terraform's or Puppet's output, an
 * Incus error, a Kubernetes event or API request) is a verbatim part of it, kept as it is, marked as
 * quoted English (`verbatim`: rendered with lang="en"). A frame with only English text (an older
 * trace, a loop whose notes are not messages yet) goes through that loop's rules (note-rules/); a
 * note no rule knows stays as it is, unmarked, so the tests (test/i18n/notes-pt-br.test.ts, the
 * pt-BR browser check) find it.
 */
export interface NotePart {
  text: string;
  verbatim?: boolean;
}

/** What a frame says: its English note and, when loopscope wrote it, the note as a message. */
export type FrameNoteOf = Pick<Frame, 'note' | 'message'>;

const TEXTS = { en: NOTES, 'pt-BR': NOTES_PT } satisfies Record<Language, unknown>;

const RULES: Record<string, readonly Rule[]> = {
  'incus-hpa': HPA,
  kubernetes: KUBERNETES,
};

/** "1 pods" as the simulator writes it (one template for every count) → "1 pod": Portuguese plural rules on the lab's side. */
const PT_NOUNS = Object.values(NOUNS).map((f) => f['pt-BR']);
const COUNTED = new RegExp(`(?<![\\d.,/])(\\d+) (${PT_NOUNS.flatMap((f) => [f.other, f.one]).join('|')})(?!\\p{L})`, 'gu');
const agree = (text: string) =>
  text.replace(COUNTED, (whole, n: string, noun: string) => {
    const forms = PT_NOUNS.find((f) => f.one === noun || f.other === noun);
    return forms ? count(Number(n), 'pt-BR', { en: forms, 'pt-BR': forms }) : whole;
  });

/** Text with ⟦verbatim⟧ marks → its parts; `prose` is applied to the parts between the marks. */
function split(text: string, prose: (part: string) => string = agree): NotePart[] {
  const parts: NotePart[] = [];
  for (const [i, piece] of text.split(/⟦|⟧/).entries())
    if (piece) parts.push(i % 2 ? { text: piece, verbatim: true } : { text: prose(piece) });
  return parts;
}

/** The frame's message in the language; undefined when this version does not know its key (or its parameters). */
function fromMessage({ note, message }: FrameNoteOf, lang: Language): NotePart[] | undefined {
  if (!message) return undefined;
  let text: string | undefined, english: string | undefined;
  try {
    text = renderMessage(TEXTS[lang], message);
    english = renderMessage(NOTES, message);
  } catch {
    return undefined; // a trace from another version whose parameters this version's text cannot read
  }
  if (text === undefined || english === undefined) return undefined;
  // What a check appended to the note (" · ✗ property: claim", sim/check/counterexample.ts) follows as it is.
  const plain = plainText(english);
  const appended = note?.startsWith(plain) ? note.slice(plain.length) : '';
  return [...split(text, (part) => part), ...(appended ? [{ text: appended }] : [])];
}

export function translateNote(loop: string, frame: FrameNoteOf, lang: Language): NotePart[] {
  const note = frame.note ?? '';
  if (lang === 'en') return note ? [{ text: note }] : [];
  const rendered = fromMessage(frame, lang);
  if (rendered) return rendered;
  const whole = firstMatch(RULES[loop] ?? [], note);
  if (whole !== undefined) return split(whole);
  // The Incus HPA under the kubernetes policy reasons as the Kubernetes HPA does.
  if (/utilisation|seed rule:|ratio [\d.]+ /.test(note)) return split(applyAll(HPA_ALGORITHM, note));
  return [{ text: note }];
}
