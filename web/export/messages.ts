import type { Language } from '../i18n/messages';

/** The export menu's words (kept beside it so other panels' dictionaries are not touched). */
export const EXPORT_TEXT: Record<
  Language,
  { export: string; title: string; statechart: string; chart: string; close: string; making: string; failed: string }
> = {
  en: {
    export: 'Export',
    title: 'Export this moment for slides (SVG and PNG)',
    statechart: 'Statechart',
    chart: 'Chart',
    close: 'Close',
    making: 'drawing…',
    failed: 'Could not draw the pictures',
  },
  'pt-BR': {
    export: 'Exportar',
    title: 'Exportar este momento para slides (SVG e PNG)',
    statechart: 'Diagrama de estados',
    chart: 'Gráfico',
    close: 'Fechar',
    making: 'desenhando…',
    failed: 'Não foi possível desenhar as imagens',
  },
};
