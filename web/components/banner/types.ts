import type { Frame } from '../../../sim/trace';
import type { Language } from '../../i18n/messages';

/** The banner's four lines, each from the controller summary (never from an older cycle's note). '' = nothing yet. */
export interface BannerLines {
  observed: string;
  compared: string;
  decided: string;
  acted: string;
}

export const EMPTY: BannerLines = { observed: '', compared: '', decided: '', acted: '' };

/** One loop's banner: the recorded frames (typed as the loop's in the registry) and the index of the one on screen, in a language. */
export type BannerOf<F extends Frame = Frame> = (frames: readonly F[], index: number, lang: Language) => BannerLines;

/** A sentence in both languages, picked at the call: pick(lang, 'en text', 'pt-BR text'). */
export const pick = (lang: Language, en: string, pt: string) => (lang === 'pt-BR' ? pt : en);

export const list = (xs: string[], max = 4) => (xs.length > max ? `${xs.slice(0, max).join(', ')} +${xs.length - max}` : xs.join(', '));
