import type { LoopId } from '../../sim/loops/define';
import { LOOP_IDS } from '../../sim/loops/define';
import type { Language } from '../i18n/messages';

type Words = Record<Language, string>;

/** A loop on the home timeline: what observe, compare and act mean for it. */
export interface LoopCard {
  id: LoopId;
  /** The year the loop appeared; null for the talk's own lab. */
  year: number | null;
  /** The tool's own name, or words per language (the talk's lab). */
  name: string | Words;
  observe: Words;
  compare: Words;
  act: Words;
}

/** One card per registered loop: a loop without one does not compile. */
const CARDS = {
  'cron': {
    year: 1975, name: 'cron',
    observe: { en: 'the clock, once a minute', 'pt-BR': 'o relógio, uma vez por minuto' },
    compare: { en: 'the time against each crontab line', 'pt-BR': 'a hora com cada linha do crontab' },
    act: { en: 'run the jobs that match', 'pt-BR': 'executa as tarefas que casam' },
  },
  'puppet': {
    year: 2005, name: 'Puppet',
    observe: { en: 'facts and each resource’s current state', 'pt-BR': 'fatos e o estado atual de cada recurso' },
    compare: { en: 'the catalog (desired) against the system', 'pt-BR': 'o catálogo (desejado) com o sistema' },
    act: { en: 'fix drifted resources, every 30 minutes', 'pt-BR': 'corrige recursos divergentes, a cada 30 minutos' },
  },
  'systemd-restart': {
    year: 2010, name: 'systemd',
    observe: { en: 'the service’s main process exits', 'pt-BR': 'o processo principal do serviço termina' },
    compare: { en: 'Restart= policy and the start-limit window', 'pt-BR': 'a política Restart= e a janela do limite de partidas' },
    act: { en: 'restart after RestartSec, or give up (failed)', 'pt-BR': 'reinicia após RestartSec, ou desiste (estado “failed”)' },
  },
  'terraform': {
    year: 2011, name: 'Terraform',
    observe: { en: 'refresh: read the real infrastructure', 'pt-BR': 'refresh: lê a infraestrutura real' },
    compare: { en: 'plan: configuration against state', 'pt-BR': 'plan: configuração contra o estado' },
    act: { en: 'apply the diff (when a human says so)', 'pt-BR': 'apply do diff (quando um humano manda)' },
  },
  'kubernetes': {
    year: 2014, name: 'Kubernetes',
    observe: { en: 'informers watch objects', 'pt-BR': 'informers observam os objetos' },
    compare: { en: 'spec against status in syncHandler', 'pt-BR': 'spec contra status no syncHandler' },
    act: { en: 'create/delete, requeue with backoff', 'pt-BR': 'cria/apaga, reenfileira com backoff' },
  },
  'incus-hpa': {
    year: null, name: { en: 'Incus HPA (the talk’s lab)', 'pt-BR': 'Incus HPA (o laboratório da palestra)' },
    observe: { en: 'list instances and their memory', 'pt-BR': 'lista instâncias e sua memória' },
    compare: { en: 'average memory % against the threshold', 'pt-BR': 'memória média % contra o limite' },
    act: { en: 'create or delete one pod', 'pt-BR': 'cria ou apaga um pod' },
  },
} satisfies Record<LoopId, Omit<LoopCard, 'id'>>;

/** A card's name in the UI language. */
export const cardName = (card: LoopCard, lang: Language): string => (typeof card.name === 'string' ? card.name : card.name[lang]);

/** The loops in order of appearance (LOOP_IDS), the talk's lab last. */
export const TIMELINE: readonly LoopCard[] = LOOP_IDS.map((id) => ({ id, ...CARDS[id] }));
