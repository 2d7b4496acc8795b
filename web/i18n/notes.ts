import type { Language } from './messages';
import { NOUNS, count } from './plural';
import { COMMON } from './note-rules/common';
import { CRON } from './note-rules/cron';
import { HPA, HPA_ALGORITHM } from './note-rules/hpa';
import { KUBERNETES } from './note-rules/kubernetes';
import { PUPPET } from './note-rules/puppet';
import { SYSTEMD } from './note-rules/systemd';
import { TERRAFORM } from './note-rules/terraform';
import type { Rule } from './note-rules/types';
import { applyAll, firstMatch } from './note-rules/types';

/**
 * A frame's note in the UI language. Notes are written by the loop bindings in English (the CLI
 * prints them too); the lab translates loopscope's own sentences here, rule by rule (one file per
 * loop in note-rules/), and keeps what the real tool prints (a journal line, Terraform's or Puppet's
 * output, an Incus error, a Kubernetes event or API request) as it is, marked as quoted English
 * (`verbatim`: rendered with lang="en"). A note no rule knows stays as it is, unmarked, so the tests
 * (test/i18n/notes-pt-br.test.ts, the pt-BR browser check) find it.
 */
export interface NotePart { text: string; verbatim?: boolean }

const RULES: Record<string, readonly Rule[]> = {
  'incus-hpa': HPA, cron: CRON, 'systemd-restart': SYSTEMD, puppet: PUPPET, terraform: TERRAFORM, kubernetes: KUBERNETES,
};

/** "1 pods" as the simulator writes it (one template for every count) → "1 pod": Portuguese plural rules on the lab's side. */
const PT_NOUNS = Object.values(NOUNS).map((f) => f['pt-BR']);
const COUNTED = new RegExp(`(?<![\\d.,/])(\\d+) (${PT_NOUNS.flatMap((f) => [f.other, f.one]).join('|')})(?!\\p{L})`, 'gu');
const agree = (text: string) => text.replace(COUNTED, (whole, n: string, noun: string) => {
  const forms = PT_NOUNS.find((f) => f.one === noun || f.other === noun);
  return forms ? count(Number(n), 'pt-BR', { en: forms, 'pt-BR': forms }) : whole;
});

function split(text: string): NotePart[] {
  const parts: NotePart[] = [];
  for (const [i, piece] of text.split(/⟦|⟧/).entries()) if (piece) parts.push(i % 2 ? { text: piece, verbatim: true } : { text: agree(piece) });
  return parts;
}

export function translateNote(loop: string, note: string, lang: Language): NotePart[] {
  if (lang === 'en') return [{ text: note }];
  const whole = firstMatch(COMMON, note) ?? firstMatch(RULES[loop] ?? [], note);
  if (whole !== undefined) return split(whole);
  // The Incus HPA under the kubernetes policy reasons as the Kubernetes HPA does.
  if (/utilisation|seed rule:|ratio [\d.]+ /.test(note)) return split(applyAll(HPA_ALGORITHM, note));
  return [{ text: note }];
}
