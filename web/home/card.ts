import type { LoopId } from '../../sim/loops/loop-id';
import type { Language } from '../i18n/messages';

type Words = Record<Language, string>;

/** A loop on the home timeline: what observe, compare and act mean for it. */
export interface LoopCard {
  id: LoopId;
  /** The year the loop appeared; null for the talk's own lab. */
  year: number | null;
  /** The tool's own name, or words per language (the talk's lab). */
  name: string | Words;
  observe: Words;
  compare: Words;
  act: Words;
}

/** A card's name in the UI language. */
export const cardName = (card: LoopCard, lang: Language): string => (typeof card.name === 'string' ? card.name : card.name[lang]);
