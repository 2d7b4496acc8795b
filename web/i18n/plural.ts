import type { Language } from './messages';

/** A noun's forms in one language: CLDR's categories English and Portuguese use ("one" and "other"). */
export interface Forms {
  one: string;
  other: string;
}

const RULES: Record<Language, Intl.PluralRules> = { en: new Intl.PluralRules('en'), 'pt-BR': new Intl.PluralRules('pt-BR') };

/** "1 pod", "2 pods"; "1 reinício", "2 reinícios" — the language's own plural rules. CLDR's Portuguese puts
 * 0 with 1 ("0 pod"); a Brazilian screen says "0 pods", "0 conflitos", so a zero count takes the plural. */
export function count(n: number, lang: Language, forms: Record<Language, Forms>): string {
  const f = forms[lang];
  return `${n} ${n !== 0 && RULES[lang].select(n) === 'one' ? f.one : f.other}`;
}

/** Whether a count takes the singular in a language (the rule `count` applies), for phrases built around it. */
export const isOne = (n: number, lang: Language): boolean => n !== 0 && RULES[lang].select(n) === 'one';

/** The same from a number as text (a note's capture group). */
export const countText = (n: string, lang: Language, forms: Record<Language, Forms>): string => count(Number(n), lang, forms);

/** Nouns the lab counts, in both languages. */
export const NOUNS = {
  pod: { en: { one: 'pod', other: 'pods' }, 'pt-BR': { one: 'pod', other: 'pods' } },
  restart: { en: { one: 'restart', other: 'restarts' }, 'pt-BR': { one: 'reinício', other: 'reinícios' } },
  resource: { en: { one: 'resource', other: 'resources' }, 'pt-BR': { one: 'recurso', other: 'recursos' } },
  change: { en: { one: 'change', other: 'changes' }, 'pt-BR': { one: 'mudança', other: 'mudanças' } },
  entry: { en: { one: 'entry', other: 'entries' }, 'pt-BR': { one: 'entrada', other: 'entradas' } },
  object: { en: { one: 'object', other: 'objects' }, 'pt-BR': { one: 'objeto', other: 'objetos' } },
  message: { en: { one: 'message', other: 'messages' }, 'pt-BR': { one: 'mensagem', other: 'mensagens' } },
  replica: { en: { one: 'replica', other: 'replicas' }, 'pt-BR': { one: 'réplica', other: 'réplicas' } },
  event: { en: { one: 'event', other: 'events' }, 'pt-BR': { one: 'evento', other: 'eventos' } },
  start: { en: { one: 'start', other: 'starts' }, 'pt-BR': { one: 'partida', other: 'partidas' } },
  action: { en: { one: 'action', other: 'actions' }, 'pt-BR': { one: 'ação', other: 'ações' } },
  error: { en: { one: 'error', other: 'errors' }, 'pt-BR': { one: 'erro', other: 'erros' } },
  conflict: { en: { one: 'conflict', other: 'conflicts' }, 'pt-BR': { one: 'conflito', other: 'conflitos' } },
  apiWrite: { en: { one: 'API write', other: 'API writes' }, 'pt-BR': { one: 'escrita na API', other: 'escritas na API' } },
  worker: { en: { one: 'worker', other: 'workers' }, 'pt-BR': { one: 'worker', other: 'workers' } },
  child: { en: { one: 'child', other: 'children' }, 'pt-BR': { one: 'filho', other: 'filhos' } },
  ready: { en: { one: 'ready', other: 'ready' }, 'pt-BR': { one: 'pronto', other: 'prontos' } },
  corrective: { en: { one: 'corrective', other: 'corrective' }, 'pt-BR': { one: 'corretiva', other: 'corretivas' } },
  skipped: { en: { one: 'skipped', other: 'skipped' }, 'pt-BR': { one: 'pulado', other: 'pulados' } },
  stopped: { en: { one: 'stopped', other: 'stopped' }, 'pt-BR': { one: 'parado', other: 'parados' } },
  restarted: { en: { one: 'restarted', other: 'restarted' }, 'pt-BR': { one: 'reiniciado', other: 'reiniciados' } },
} satisfies Record<string, Record<Language, Forms>>;

/** A count in Portuguese, for the note rules (which write pt-BR only). */
export const pt = (n: string | undefined, noun: keyof typeof NOUNS): string => countText(n ?? '0', 'pt-BR', NOUNS[noun]);

/** A count in Portuguese, for the notes' Portuguese texts (web/i18n/note-texts). */
export const ptCount = (n: number, noun: keyof typeof NOUNS): string => count(n, 'pt-BR', NOUNS[noun]);
