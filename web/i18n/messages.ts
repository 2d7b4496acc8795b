/** UI text in English and Brazilian Portuguese (the talk's audience). Loop data stays as is. */
export const LANGUAGES = ['en', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];

const en = {
  title: 'loopscope',
  tagline: 'Fifty years of control loops: observe → compare → act, then wait.',
  home: 'Loops',
  open: 'Open',
  comingSoon: 'being built',
  today: 'today',
  observe: 'Observe', compare: 'Compare', act: 'Act', wait: 'Wait', error: 'Error',
  scenario: 'Scenario', seed: 'Seed', policy: 'Policy', speed: 'Speed',
  play: 'Play', pause: 'Pause', step: 'Step', stepBack: 'Step back', reset: 'Reset',
  state: 'State', phase: 'Phase', time: 'Time', decision: 'Decision',
  noDecision: 'No decision yet: the loop has not compared anything.',
  pods: 'Pods', running: 'running', threshold: 'threshold', demand: 'demand', apiCalls: 'API calls',
  statechart: 'Statechart (drawn from the machine)',
  charts: 'Over time', replicas: 'running pods', avgMemory: 'average memory %',
  interventions: 'Interventions', kill: 'Kill', stress: 'Stress', unstress: 'Unstress',
  failApi: 'Fail the API (3 calls)', restartController: 'Restart the controller',
  desiredState: 'Desired state (hpa.yaml)', apply: 'Apply', applied: 'Applied: the loop uses it from its next phase.',
  loadTrace: 'Load a trace file', traceLoaded: 'Trace', traceBad: 'Not a loopscope trace',
  presenter: 'Presenter mode', exitPresenter: 'Exit presenter mode', language: 'Language',
  past: 'viewing the past — play or step to continue',
  shortcuts: 'space play/pause · → step · ← back · + faster · − slower',
  phaseObserve: 'The loop reads the world: what is actually there.',
  phaseCompare: 'The loop compares what it saw with the desired state and decides.',
  phaseAct: 'The loop acts on the world to close the gap.',
  phaseWait: 'The loop sleeps until its next period.',
  phaseError: 'An operation failed: the loop backs off, then observes again.',
  world: 'World',
} as const;

export type MessageKey = keyof typeof en;

const ptBR: Record<MessageKey, string> = {
  title: 'loopscope',
  tagline: 'Cinquenta anos de laços de controle: observar → comparar → agir, e esperar.',
  home: 'Laços',
  open: 'Abrir',
  comingSoon: 'em construção',
  today: 'hoje',
  observe: 'Observar', compare: 'Comparar', act: 'Agir', wait: 'Esperar', error: 'Erro',
  scenario: 'Cenário', seed: 'Semente', policy: 'Política', speed: 'Velocidade',
  play: 'Executar', pause: 'Pausar', step: 'Avançar', stepBack: 'Voltar', reset: 'Reiniciar',
  state: 'Estado', phase: 'Fase', time: 'Tempo', decision: 'Decisão',
  noDecision: 'Nenhuma decisão ainda: o laço ainda não comparou nada.',
  pods: 'Pods', running: 'em execução', threshold: 'limite', demand: 'demanda', apiCalls: 'chamadas à API',
  statechart: 'Diagrama de estados (gerado da máquina)',
  charts: 'Ao longo do tempo', replicas: 'pods em execução', avgMemory: 'memória média %',
  interventions: 'Intervenções', kill: 'Matar', stress: 'Estressar', unstress: 'Aliviar',
  failApi: 'Derrubar a API (3 chamadas)', restartController: 'Reiniciar o controlador',
  desiredState: 'Estado desejado (hpa.yaml)', apply: 'Aplicar', applied: 'Aplicado: o laço usa a partir da próxima fase.',
  loadTrace: 'Carregar um arquivo de trace', traceLoaded: 'Trace', traceBad: 'Não é um trace do loopscope',
  presenter: 'Modo apresentação', exitPresenter: 'Sair do modo apresentação', language: 'Idioma',
  past: 'vendo o passado — execute ou avance para continuar',
  shortcuts: 'espaço executar/pausar · → avançar · ← voltar · + mais rápido · − mais lento',
  phaseObserve: 'O laço lê o mundo: o que existe de fato.',
  phaseCompare: 'O laço compara o que viu com o estado desejado e decide.',
  phaseAct: 'O laço age sobre o mundo para fechar a diferença.',
  phaseWait: 'O laço dorme até o próximo período.',
  phaseError: 'Uma operação falhou: o laço espera (backoff) e observa de novo.',
  world: 'Mundo',
};

export const MESSAGES: Record<Language, Record<MessageKey, string>> = { en, 'pt-BR': ptBR };
