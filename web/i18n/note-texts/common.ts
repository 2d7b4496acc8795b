import type { TranslationOf } from '../../../sim/notes/catalog';
import type { COMMON_NOTES } from '../../../sim/notes/common';

/** Narration every loop shares, in Portuguese. */
export const COMMON_PT = {
  'common.controllerRestarted': () => 'controlador reiniciado: memória perdida, volta a observar',
} satisfies TranslationOf<typeof COMMON_NOTES>;
