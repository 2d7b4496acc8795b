import type { LoopId } from '../../sim/loops/define';
import type { Language } from '../i18n/messages';

/**
 * The talk's tour: one stop per loop, in the talk's order (cron 1975 → Puppet → systemd →
 * Terraform → Kubernetes → the Incus HPA lab). Each stop opens a scenario at a prepared chapter
 * (a `moments:` entry of that scenario, checked by test/scenario/moments-happen.test.ts) and says
 * what to look at there; the observe/compare/act mapping is the home page's card for the loop.
 */
export interface TourStop {
  loop: LoopId;
  scenario: string;
  moment: string;
  point: Record<Language, string>;
}

export const TOUR: readonly TourStop[] = [
  {
    loop: 'cron', scenario: 'cron-normal', moment: 'seven-oclock',
    point: {
      en: 'The oldest loop: wake every minute, compare the clock with each crontab line, run what matches. It never checks that a job worked.',
      'pt-BR': 'O laço mais antigo: acorda a cada minuto, compara o relógio com cada linha do crontab, executa o que casa. Nunca verifica se a tarefa funcionou.',
    },
  },
  {
    loop: 'puppet', scenario: 'puppet-webserver', moment: 'drift-reverted',
    point: {
      en: 'Desired state as a catalog: every 30 minutes the agent finds what drifted and puts it back (a corrective change).',
      'pt-BR': 'Estado desejado como catálogo: a cada 30 minutos o agente encontra o que divergiu e corrige (uma mudança corretiva).',
    },
  },
  {
    loop: 'systemd-restart', scenario: 'systemd-crash-loop', moment: 'start-limit-hit',
    point: {
      en: 'Restart= watches one process: it restarts it on failure — until the start limit says a loop that only restarts is not converging.',
      'pt-BR': 'Restart= observa um processo: reinicia quando falha — até o limite de partidas dizer que um laço que só reinicia não está convergindo.',
    },
  },
  {
    loop: 'terraform', scenario: 'terraform-drift', moment: 'drift-reverted',
    point: {
      en: 'refresh, plan, apply: the same three steps, run by a scheduler here; drift made in the console is reverted by the next apply.',
      'pt-BR': 'refresh, plan, apply: os mesmos três passos, aqui executados por um agendador; o desvio feito no console é revertido pelo próximo apply.',
    },
  },
  {
    loop: 'kubernetes', scenario: 'kubernetes-replicaset', moment: 'pod-crashed',
    point: {
      en: 'The pattern made general: informers observe, the reconcile compares spec with status, the workqueue retries with backoff.',
      'pt-BR': 'O padrão generalizado: informers observam, o reconcile compara spec com status, a workqueue tenta de novo com backoff.',
    },
  },
  {
    loop: 'incus-hpa', scenario: 'talk-lab', moment: 'first-scale-up',
    point: {
      en: 'The talk’s lab: a memory autoscaler for Incus containers. Load arrives, the average crosses the threshold, the loop creates a pod.',
      'pt-BR': 'O laboratório da palestra: um autoscaler de memória para contêineres Incus. A carga chega, a média passa do limite, o laço cria um pod.',
    },
  },
];
