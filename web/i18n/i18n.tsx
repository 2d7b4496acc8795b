import type { ReactNode } from 'react';
import { createContext, useContext, useEffect } from 'react';
import type { Language, MessageKey } from './messages';
import { LANGUAGES, MESSAGES } from './messages';

const LanguageContext = createContext<Language>('en');

/** Provides the UI language and declares it on <html lang> (screen readers, hyphenation, and text
 * quoted from a real tool can then say lang="en" where it stays English). */
export function LanguageProvider({ value, children }: { value: Language; children?: ReactNode }) {
  useEffect(() => {
    document.documentElement.lang = value;
  }, [value]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

// One stable translator per language, so components can list it in effect dependencies.
const TRANSLATORS = Object.fromEntries(LANGUAGES.map((l) => [l, (key: MessageKey) => MESSAGES[l][key]])) as Record<
  Language,
  (key: MessageKey) => string
>; // cast: Object.fromEntries says Record<string, …>; one entry per language

/** The translator for the current UI language. */
export function useT(): (key: MessageKey) => string {
  return TRANSLATORS[useContext(LanguageContext)];
}

export function useLanguage(): Language {
  return useContext(LanguageContext);
}
