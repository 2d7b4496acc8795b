import type { Language } from '../i18n/messages';

/** The side-by-side page's words (kept beside it so other panels' dictionaries are not touched). */
export const COMPARE_TEXT: Record<
  Language,
  {
    sideBySide: string;
    sideBySideTitle: string;
    back: string;
    columns: string;
    scenarioPolicy: string;
    diverge: string;
    converge: string;
    noDivergence: string;
    decided: string;
    differs: string;
    same: string;
    timeline: string;
    finding: string;
    toAll: string;
  }
> = {
  en: {
    sideBySide: 'Side by side',
    sideBySideTitle: 'The same scenario and seed under two or three policies, in step',
    back: 'One run',
    columns: 'Policies',
    scenarioPolicy: "scenario's own",
    diverge: 'decisions part',
    converge: 'decide alike again',
    noDivergence: 'the policies decide alike for the whole run',
    decided: 'decided replicas',
    differs: 'differs',
    same: 'same',
    timeline: 'Where the decisions part',
    finding: 'finding where the decisions part…',
    toAll: 'In every run',
  },
  'pt-BR': {
    sideBySide: 'Lado a lado',
    sideBySideTitle: 'O mesmo cenário e a mesma semente sob duas ou três políticas, em sincronia',
    back: 'Uma execução',
    columns: 'Políticas',
    scenarioPolicy: 'a do cenário',
    diverge: 'as decisões se separam',
    converge: 'voltam a decidir igual',
    noDivergence: 'as políticas decidem igual durante toda a execução',
    decided: 'réplicas decididas',
    differs: 'difere',
    same: 'igual',
    timeline: 'Onde as decisões se separam',
    finding: 'procurando onde as decisões se separam…',
    toAll: 'Em todas as execuções',
  },
};
