import type { Rule } from './types';

/** Narration every loop shares (sim/runner.ts). */
export const COMMON: Rule[] = [
  [/^controller restarted: memory lost, starts observing again$/, 'controlador reiniciado: memória perdida, volta a observar'],
];
