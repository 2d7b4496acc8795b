import type { Language } from '../i18n/messages';

/** The chapters panel's words (kept beside it so other panels' dictionaries are not touched). */
export const CHAPTER_TEXT: Record<Language, { chapters: string; notReached: string; unknown: string; expected: string; notInRun: string }> =
  {
    en: {
      chapters: 'Chapters',
      notReached: 'later',
      unknown: 'moment',
      expected: 'expected one of',
      notInRun: 'does not happen in this run',
    },
    'pt-BR': {
      chapters: 'Capítulos',
      notReached: 'adiante',
      unknown: 'momento',
      expected: 'esperado um de',
      notInRun: 'não acontece nesta execução',
    },
  };
