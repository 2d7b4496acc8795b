import { useLanguage, useT } from '../i18n/i18n';
import { scenariosOf } from '../lab/scenarios';
import { TOUR_TEXT } from '../tour/messages';
import { cardName } from './card';
import { TIMELINE } from './loops';

/** The loops as a timeline; a loop is runnable once it has a scenario. */
export function Home({ onOpen, onTour }: { onOpen(loop: string, scenario: string): void; onTour(): void }) {
  const t = useT();
  const lang = useLanguage();
  return (
    <main className="home" data-testid="home">
      <p className="tagline">{t('tagline')}</p>
      <button className="start-tour" data-testid="start-tour" onClick={onTour}>
        ▶ {TOUR_TEXT[lang].start}
      </button>
      <ol className="timeline">
        {TIMELINE.map((card) => {
          const scenarios = scenariosOf(card.id);
          return (
            <li key={card.id} className={`loop-card${scenarios.length ? ' runnable' : ''}`} data-testid={`loop-card-${card.id}`}>
              <div className="year">{card.year ?? (card.id === 'incus-hpa' ? t('today') : '')}</div>
              <h2>{cardName(card, lang)}</h2>
              <dl>
                <dt className="tag-observe">{t('observe')}</dt>
                <dd>{card.observe[lang]}</dd>
                <dt className="tag-compare">{t('compare')}</dt>
                <dd>{card.compare[lang]}</dd>
                <dt className="tag-act">{t('act')}</dt>
                <dd>{card.act[lang]}</dd>
              </dl>
              {scenarios.length ? (
                <div className="scenarios">
                  {scenarios.map((s) => (
                    <button key={s.id} data-testid={`open-${s.id}`} title={s.description} onClick={() => onOpen(card.id, s.id)}>
                      {s.id}
                    </button>
                  ))}
                </div>
              ) : (
                <div className="soon">{t('comingSoon')}</div>
              )}
            </li>
          );
        })}
      </ol>
    </main>
  );
}
