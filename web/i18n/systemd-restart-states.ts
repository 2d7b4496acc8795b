import type { ServiceResult } from '../../machines/systemd-restart/types';
import type { Language } from './messages';

/** systemd's ActiveState and SubState (machines/systemd-restart/status.ts) and Result values in Portuguese,
 * for the lab's own sentences (the `systemctl status` block keeps systemctl's English, as systemctl does). */
const ACTIVE: Record<string, string> = {
  inactive: 'inativo',
  activating: 'ativando',
  active: 'ativo',
  deactivating: 'desativando',
  failed: 'em falha',
  reloading: 'recarregando',
};
const SUB: Record<string, string> = {
  dead: 'parado',
  start: 'início',
  running: 'em execução',
  exited: 'encerrado',
  'stop-watchdog': 'parando (watchdog)',
  'stop-sigterm': 'parando (SIGTERM)',
  'stop-sigkill': 'parando (SIGKILL)',
  'auto-restart': 'reinício automático',
  'dead-before-auto-restart': 'parado antes do reinício automático',
  'failed-before-auto-restart': 'em falha antes do reinício automático',
  failed: 'em falha',
};
/** Every ServiceResult the machine produces (machines/systemd-restart/types.ts), as systemd.service(5) explains each. */
const RESULT: Record<ServiceResult, string> = {
  success: 'sucesso',
  'exit-code': 'código de saída',
  signal: 'sinal',
  'core-dump': 'core dump',
  timeout: 'tempo esgotado',
  watchdog: 'watchdog',
  'oom-kill': 'morto por falta de memória (OOM)',
  'start-limit-hit': 'limite de partidas atingido',
};

const pt = (table: Record<string, string>) => (value: string, lang: Language) => (lang === 'pt-BR' ? (table[value] ?? value) : value);
export const activeStateText = pt(ACTIVE);
export const subStateText = pt(SUB);
export const resultText = pt(RESULT);

/** service_shall_restart()'s reasons (machines/systemd-restart/policy.ts RestartDecision) in Portuguese. */
const REASON: Record<string, string> = {
  'manual stop': 'parada manual',
  'prevented by exit status': 'impedido pelo status de saída (RestartPreventExitStatus=)',
  'forced by exit status': 'forçado pelo status de saída (RestartForceExitStatus=)',
  'service type and exit status': 'tipo do serviço e status de saída',
  'restart setting': 'configuração Restart=',
};
export const restartReasonText = pt(REASON);
