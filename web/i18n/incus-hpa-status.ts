import type { Language } from './messages';

/** Incus instance statuses (the API's `status`) as the UI language says them; the API value stays in data-status. */
const PT: Record<string, string> = {
  Running: 'Em execução',
  Stopped: 'Parado',
  Starting: 'Iniciando',
  Stopping: 'Parando',
  Frozen: 'Congelado',
  Error: 'Erro',
};

export const statusText = (status: string, lang: Language): string => (lang === 'pt-BR' ? (PT[status] ?? status) : status);
