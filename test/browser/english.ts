import { MESSAGES } from '../../web/i18n/messages';

/**
 * Finds English left in a page shown in Portuguese. Two signals, both cheap and honest:
 * - function words that English sentences cannot do without and Portuguese never uses
 *   ("the", "is", "with", "not" …: a translated sentence has none of them);
 * - the lab's own English UI strings (every en message that differs from its pt-BR translation).
 * Text that is quoted output of the real tool (marked lang="en"), code, and the statechart's
 * state and event identifiers are not prose and are skipped by the page-side collector.
 */
export const ENGLISH_FUNCTION_WORDS = new Set([
  'the',
  'and',
  'of',
  'to',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'with',
  'from',
  'for',
  'not',
  'yet',
  'has',
  'have',
  'had',
  'will',
  'would',
  'should',
  'can',
  'could',
  'by',
  'at',
  'on',
  'in',
  'its',
  'it',
  'an',
  'or',
  'this',
  'that',
  'these',
  'those',
  'when',
  'which',
  'than',
  'then',
  'into',
  'only',
  'every',
  'after',
  'before',
  'until',
  'while',
  'there',
  'their',
  'they',
  'you',
  'your',
  'what',
  'does',
  'did',
  'already',
  'again',
  'still',
  'nothing',
  'none',
  'running',
  'wait',
  'waiting',
  'delete',
  'create',
  'created',
  'deleted',
  'starting',
  'stopped',
  'failed',
  'average',
  'avg',
  'threshold',
  'action',
  'scale',
  'next',
  'last',
  'list',
  'time',
  'event',
]);

/** Words Portuguese shares with the list above, or names the lab shows as they are (never flagged). */
const SHARED = new Set(['a', 'as', 'e', 'o', 'no']);

const ENGLISH_UI = Object.entries(MESSAGES.en)
  .filter(([key, en]) => en !== MESSAGES['pt-BR'][key as keyof typeof MESSAGES.en] && en.length >= 4 && /[a-z]{3}/.test(en))
  .map(([, en]) => ({ en, re: new RegExp(`(?<!\\p{L})${en.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'u') }));

export interface EnglishHit {
  text: string;
  why: string;
}

/** The English in one visible text (a text node's content), with the reason it was flagged. */
export function englishIn(text: string): EnglishHit | undefined {
  // Whole words only (Unicode letters: "até" is not "at"); a quoted "…" or “…” citation (a tool's own message) is not prose.
  // Names joined by : / = @ (nginx:latest, default/web, Restart=always) are identifiers, not prose either.
  const prose = text.replace(/"[^"]*"|“[^”]*”/g, ' ').replace(/[\p{L}\p{N}._-]+(?:[:/=@][\p{L}\p{N}._*-]+)+/gu, ' ');
  // Identifiers with digits (pod2c64be71) are names, not words.
  const words = (prose.toLowerCase().match(/[\p{L}\p{N}]+(?:'\p{L}+)?/gu) ?? []).filter((w) => !/\p{N}/u.test(w));
  const hits = words.filter((w) => ENGLISH_FUNCTION_WORDS.has(w) && !SHARED.has(w));
  if (hits.length > 0) return { text, why: `English word(s): ${[...new Set(hits)].join(', ')}` };
  const ui = ENGLISH_UI.find(({ re }) => re.test(prose));
  if (ui) return { text, why: `untranslated UI text "${ui.en}"` };
  return undefined;
}

/** Every visible text and every title/placeholder/aria-label, except quoted tool output (lang="en"
 * inside the page), code, form values and the machine's ids kept as tooltips (data-machine-id). The
 * statechart's states and edges and the banner's state and event lines are words, and checked. A
 * string, so no bundler helper leaks into the page. */
export const VISIBLE_TEXTS = `(() => {
  const out = [];
  const sel = 'body [lang="en"], code, pre, textarea, select, input, [translate="no"]';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest(sel)) continue;
    const r = el.getBoundingClientRect(); if (r.width === 0 && r.height === 0) continue;
    const s = (n.textContent || '').trim(); if (s) out.push(s);
  }
  for (const el of document.querySelectorAll('[title], [placeholder], [aria-label]'))
    for (const a of ['title', 'placeholder', 'aria-label']) {
      if (a === 'title' && el.hasAttribute('data-machine-id')) continue;
      const v = el.getAttribute(a); if (v && !el.closest(sel)) out.push(v);
    }
  return out;
})()`;
