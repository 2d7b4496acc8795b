import type { Language } from '../i18n/messages';

// Live mode's own words (kept here so the shared dictionary does not grow for one panel).
const en = {
  live: 'Live',
  liveTitle: 'Live: a real run',
  liveHelp: 'Start `loopscope real --config hpa.yaml --live` (add --step to approve each act here) and paste the address it prints.',
  connect: 'Connect',
  disconnect: 'Disconnect',
  connecting: 'connecting…',
  connected: 'connected',
  closed: 'disconnected',
  waitingFrame: 'connected: waiting for the first frame…',
  pendingTitle: 'Approve this act?',
  approve: 'Approve',
  skip: 'Skip',
  stepMode: '--step: acts wait for approval',
  watchOnly: 'watching (no --step: nothing to approve)',
  dryRun: 'DRY RUN',
  answered: 'answered',
  actors: 'Actors (XState inspection)',
};
const ptBR: typeof en = {
  live: 'Ao vivo',
  liveTitle: 'Ao vivo: uma execução real',
  liveHelp: 'Inicie `loopscope real --config hpa.yaml --live` (com --step para aprovar cada ação aqui) e cole o endereço que ele imprime.',
  connect: 'Conectar',
  disconnect: 'Desconectar',
  connecting: 'conectando…',
  connected: 'conectado',
  closed: 'desconectado',
  waitingFrame: 'conectado: aguardando o primeiro quadro…',
  pendingTitle: 'Aprovar esta ação?',
  approve: 'Aprovar',
  skip: 'Pular',
  stepMode: '--step: as ações aguardam aprovação',
  watchOnly: 'observando (sem --step: nada a aprovar)',
  dryRun: 'SIMULAÇÃO (dry run)',
  answered: 'respondida',
  actors: 'Atores (inspeção do XState)',
};

export type LiveMessageKey = keyof typeof en;
export const LIVE_MESSAGES: Record<Language, Record<LiveMessageKey, string>> = { en, 'pt-BR': ptBR };
