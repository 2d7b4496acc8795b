import { createContext, useContext } from 'react';
import type { Language, MessageKey } from './messages';
import { LANGUAGES, MESSAGES } from './messages';

const LanguageContext = createContext<Language>('en');
export const LanguageProvider = LanguageContext.Provider;

// One stable translator per language, so components can list it in effect dependencies.
const TRANSLATORS = Object.fromEntries(LANGUAGES.map((l) => [l, (key: MessageKey) => MESSAGES[l][key]])) as Record<Language, (key: MessageKey) => string>;

/** The translator for the current UI language. */
export function useT(): (key: MessageKey) => string {
  return TRANSLATORS[useContext(LanguageContext)];
}

export function useLanguage(): Language { return useContext(LanguageContext); }
