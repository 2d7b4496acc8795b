import type { Language } from '../i18n/messages';

/** The tour's words (kept beside it so other panels' dictionaries are not touched). */
export const TOUR_TEXT: Record<
  Language,
  { tour: string; start: string; stop: string; of: string; previous: string; next: string; leave: string; keys: string }
> = {
  en: {
    tour: 'The talk’s tour',
    start: 'Start the talk’s tour',
    stop: 'Stop',
    of: 'of',
    previous: 'Previous stop',
    next: 'Next stop',
    leave: 'Leave the tour',
    keys: '[ and ] move between stops',
  },
  'pt-BR': {
    tour: 'O roteiro da palestra',
    start: 'Começar o roteiro da palestra',
    stop: 'Parada',
    of: 'de',
    previous: 'Parada anterior',
    next: 'Próxima parada',
    leave: 'Sair do roteiro',
    keys: '[ e ] mudam de parada',
  },
};
