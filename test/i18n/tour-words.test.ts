import { describe, expect, it } from 'vitest';
import { LOOP_IDS } from '../../sim/loops/define';
import { cardName } from '../../web/home/card';
import { TIMELINE } from '../../web/home/loops';
import { MESSAGES } from '../../web/i18n/messages';
import { TOUR_TEXT } from '../../web/tour/messages';
import { TOUR } from '../../web/tour/stops';
import { englishIn } from '../browser/english';

/** The tour speaks the banner's Portuguese: a loop is a "laço" (MESSAGES.home), never an English word. */
describe("the tour's words in pt-BR (web/tour/)", () => {
  it('say laço, as the rest of the lab, and no English', () => {
    expect(MESSAGES['pt-BR'].home).toBe('Laços');
    const texts = [
      ...TOUR.map((s) => s.point['pt-BR']),
      ...Object.values(TOUR_TEXT['pt-BR']),
      ...TIMELINE.map((c) => cardName(c, 'pt-BR')),
    ];
    expect(texts.filter((x) => /\bloops?\b/i.test(x))).toEqual([]);
    expect(
      texts.flatMap((x) => {
        const hit = englishIn(x);
        return hit ? [`${x} (${hit.why})`] : [];
      }),
    ).toEqual([]);
    expect(TIMELINE.map((c) => c.id).sort()).toEqual([...LOOP_IDS].sort());
  });
});
