import { useEffect, useRef } from 'react';
import { isTextField } from '../components/useShortcuts';
import { cardName } from '../home/card';
import { TIMELINE } from '../home/loops';
import { useLanguage, useT } from '../i18n/i18n';
import { TOUR_TEXT } from './messages';
import { TOUR } from './stops';
import './tour.css';

/** The tour's bar above the lab: where we are (stop k of n), the loop's observe/compare/act, what
 * to look at, and the way to the previous and next stops ([ and ] from the keyboard, as the lab's
 * own shortcuts: whatever has focus, except a text field). */
export function TourBar({ stop, onGo, onLeave }: { stop: number; onGo(stop: number): void; onLeave(): void }) {
  const lang = useLanguage();
  const t = useT();
  const text = TOUR_TEXT[lang];
  const here = TOUR[stop - 1]!;
  const card = TIMELINE.find((c) => c.id === here.loop)!;
  const go = useRef(onGo);
  go.current = onGo;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTextField(e.target instanceof Element ? e.target : null) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === ']' && stop < TOUR.length) go.current(stop + 1);
      else if (e.key === '[' && stop > 1) go.current(stop - 1);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [stop]);
  return (
    <section className="tour-bar" data-testid="tour-bar" data-stop={stop} aria-label={text.tour}>
      <div className="tour-where">
        <b>
          {text.stop} {stop} {text.of} {TOUR.length}
        </b>
        <span className="tour-loop" data-testid="tour-loop">
          {card.year ?? t('today')} · {cardName(card, lang)}
        </span>
      </div>
      <dl className="tour-mapping">
        <dt className="tag-observe">{t('observe')}</dt>
        <dd>{card.observe[lang]}</dd>
        <dt className="tag-compare">{t('compare')}</dt>
        <dd>{card.compare[lang]}</dd>
        <dt className="tag-act">{t('act')}</dt>
        <dd>{card.act[lang]}</dd>
      </dl>
      <p className="tour-point" data-testid="tour-point">
        {here.point[lang]}
      </p>
      <nav className="tour-nav">
        <button data-testid="tour-previous" disabled={stop === 1} onClick={() => onGo(stop - 1)} title={text.keys}>
          ◀ {text.previous}
        </button>
        <button data-testid="tour-next" disabled={stop === TOUR.length} onClick={() => onGo(stop + 1)} title={text.keys}>
          {text.next} ▶
        </button>
        <button data-testid="tour-leave" onClick={onLeave} aria-label={text.leave}>
          ✕
        </button>
      </nav>
    </section>
  );
}
