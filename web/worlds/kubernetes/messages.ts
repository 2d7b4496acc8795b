import type { Language } from '../../i18n/messages';

/** The Kubernetes world view's words: kubectl's column names and the pods' status as the UI language says them
 * (kept beside the view). What the cluster itself wrote — event reasons and messages, an operator's status
 * summary — is quoted as it is (rendered with lang="en"). */
export const KUBERNETES_TEXT: Record<
  Language,
  {
    ready: string;
    restarts: string;
    queues: string;
    deleting: string;
    deployHead: string[];
    rsHead: string[];
    objectsHead: string[];
    queuesHead: string[];
    eventsHead: string[];
  }
> = {
  en: {
    ready: 'ready',
    restarts: 'restarts',
    queues: 'Queues',
    deleting: 'deleting',
    deployHead: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'GEN/OBSERVED'],
    rsHead: ['NAME', 'DESIRED', 'CURRENT', 'READY'],
    objectsHead: ['KIND', 'NAME', 'STATE'],
    queuesHead: ['NAME', 'LENGTH'],
    eventsHead: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
  },
  'pt-BR': {
    ready: 'prontos',
    restarts: 'reinícios',
    queues: 'Filas',
    deleting: 'apagando',
    deployHead: ['NOME', 'PRONTOS', 'ATUALIZADOS', 'DISPONÍVEIS', 'GERAÇÃO/OBSERVADA'],
    rsHead: ['NOME', 'DESEJADOS', 'ATUAIS', 'PRONTOS'],
    objectsHead: ['TIPO', 'NOME', 'ESTADO'],
    queuesHead: ['NOME', 'TAMANHO'],
    eventsHead: ['VISTO HÁ', 'TIPO', 'MOTIVO', 'OBJETO', 'MENSAGEM'],
  },
};

/** kubectl's STATUS values (sim/worlds/kubernetes/summary.ts podState) in Portuguese; CrashLoopBackOff and other reasons stay as they are. */
const POD_STATUS_PT: Record<string, string> = {
  Running: 'Em execução',
  'Running (not ready)': 'Em execução (não pronto)',
  Pending: 'Pendente',
  ContainerCreating: 'Criando contêiner',
  Terminating: 'Encerrando',
  Succeeded: 'Concluído',
  Failed: 'Falhou',
  Unknown: 'Desconhecido',
};

export const podStatusText = (status: string, lang: Language): { text: string; quoted: boolean } => {
  if (lang === 'en') return { text: status, quoted: false };
  const pt = POD_STATUS_PT[status];
  return pt ? { text: pt, quoted: false } : { text: status, quoted: true };
};

/** loopscope's own shapes of the STATE column (summary.ts baseState, the HPA's status) in Portuguese. */
const STATE_PT: [RegExp, string][] = [
  [/^image (\S+), replicas (\d+), port (\d+)/, 'imagem $1, réplicas $2, porta $3'],
  [/^generation (\d+), observed (\d+)/, 'geração $1, observada $2'],
  [/^cpu (\S+), replicas (\d+)$/, 'cpu $1, réplicas $2'],
  [/^cpu (\S+), replicas (\d+): (\w+)$/, 'cpu $1, réplicas $2: ⟦$3⟧'],
  [/^schedule "([^"]*)", from (.*)$/, 'agenda "$1", a partir de $2'],
  [/^schedule "([^"]*)"$/, 'agenda "$1"'],
  [/^selector (.*)$/, 'seletor $1'],
  [/^host (.*)$/, 'host $1'],
  [/^Active$/, 'Ativo'],
];

/**
 * An object's STATE in the UI language: parts, each quoted (the cluster's own text, lang="en") or not.
 * A finalizer list keeps its names; a status summary loopscope does not know is quoted as the cluster wrote it.
 */
export function objectStateParts(state: string, lang: Language): { text: string; quoted: boolean }[] {
  if (lang === 'en') return [{ text: state, quoted: false }];
  const fin = /^(.*?)( \[finalizers: (.*)\])?$/.exec(state)!;
  const base = fin[1]!;
  const rule = STATE_PT.find(([re]) => re.test(base));
  const parts = rule
    ? base
        .replace(rule[0], rule[1])
        .split(/⟦|⟧/)
        .map((text, i) => ({ text, quoted: i % 2 === 1 }))
        .filter((p) => p.text)
    : [{ text: base, quoted: true }];
  return fin[3]
    ? [...parts, { text: ' [finalizadores: ', quoted: false }, { text: fin[3], quoted: true }, { text: ']', quoted: false }]
    : parts;
}
