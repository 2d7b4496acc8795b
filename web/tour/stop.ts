import type { LoopId } from '../../sim/loops/loop-id';
import type { Language } from '../i18n/messages';

/**
 * One stop of the talk's tour (web/tour/stops.ts): it opens a scenario at a prepared chapter (a
 * `moments:` entry of that scenario, checked by test/scenario/moments-happen.test.ts) and says what to
 * look at there; the observe/compare/act mapping is the home page's card for the loop.
 */
export interface TourStop {
  loop: LoopId;
  scenario: string;
  moment: string;
  point: Record<Language, string>;
}
