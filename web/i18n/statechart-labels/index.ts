import type { Text } from './types';

/** Any loop's table (each loop's, typed by its machine, is in its LOOP_UI entry), as the chart reads it at run time (names are strings there). */
export interface LoopChartLabels {
  states: Readonly<Record<string, Text>>;
  events: Readonly<Record<string, Text>>;
  actors: Readonly<Record<string, { done: Text; error: Text }>>;
  delays: Readonly<Record<string, Text>>;
  guards: Readonly<Record<string, Text | ((params: never) => Text)>>;
}

/** Events every loop's runner writes into a trace (sim/runner.ts, real/hpa-runner.ts), not the machine's. */
export const RUNNER_EVENTS: Readonly<Record<string, Text>> = {
  'xstate.init': { en: 'the run starts', 'pt-BR': 'início da execução' },
  'world.timeline': { en: 'the scenario changes the world', 'pt-BR': 'o cenário muda o mundo' },
  'world.inject': { en: 'an intervention', 'pt-BR': 'uma intervenção' },
  'controller.restart': { en: 'the controller restarted', 'pt-BR': 'o controlador reiniciou' },
  'real.adopt': { en: 'real run: adopted what exists', 'pt-BR': 'execução real: adotou o que existe' },
  'real.note': { en: 'real run: a note', 'pt-BR': 'execução real: uma nota' },
  'real.lease': { en: 'real run: the lease', 'pt-BR': 'execução real: o lease' },
};

/** How the event line introduces each kind of event. */
export const EVENT_KIND: Record<'timer' | 'done' | 'error', Text> = {
  timer: { en: 'timer', 'pt-BR': 'temporizador' },
  done: { en: 'answer', 'pt-BR': 'resposta' },
  error: { en: 'failure', 'pt-BR': 'falha' },
};

export const ALWAYS: Text = { en: 'at once', 'pt-BR': 'de imediato' };

export type { Text };
