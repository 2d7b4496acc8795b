import type { thermostatMachine } from '../../../machines/thermostat/machine';
import { controllerOf } from '../../../sim/trace';
import { EMPTY, pick } from '../../components/banner/types';
import type { ChartLabels } from '../../i18n/statechart-labels/types';
import type { LoopUi } from '../../loop-ui-types';
import { strokeAt } from '../chart-types';

const LABELS: ChartLabels<typeof thermostatMachine> = {
  states: {
    observing: { en: 'reading the room', 'pt-BR': 'lendo a sala' },
    comparing: { en: 'comparing with the band', 'pt-BR': 'comparando com a faixa' },
    acting: { en: 'switching the heater', 'pt-BR': 'ligando ou desligando o aquecedor' },
    waiting: { en: 'waiting for the next reading', 'pt-BR': 'esperando a próxima leitura' },
  },
  events: { 'CONFIG.UPDATE': { en: 'new set point', 'pt-BR': 'novo ponto de ajuste' } },
  actors: {
    readTemperature: {
      done: { en: 'temperature read', 'pt-BR': 'temperatura lida' },
      error: { en: 'sensor failed', 'pt-BR': 'o sensor falhou' },
    },
    setHeater: {
      done: { en: 'heater switched', 'pt-BR': 'aquecedor acionado' },
      error: { en: 'switch failed', 'pt-BR': 'o acionamento falhou' },
    },
  },
  delays: { period: { en: 'period elapsed', 'pt-BR': 'fim do período' } },
  guards: { switchNeeded: { en: 'heater must change', 'pt-BR': 'o aquecedor precisa mudar' } },
};

/** A room thermostat in the lab: one entry of LOOP_UI (web/loop-ui.ts). */
export const THERMOSTAT_UI: LoopUi<'thermostat'> = {
  chart: () => ({
    series: [{ label: '°C', stroke: strokeAt(0) }],
    valuesOf: ({ world: w }) => [w.temperatureC],
  }),
  banner: (frames, index, lang) => {
    const c = controllerOf(frames[index]!, 'thermostat');
    if (!c || c.readingC === null) return EMPTY;
    const heat = (on: boolean) => (on ? pick(lang, 'heater on', 'aquecedor ligado') : pick(lang, 'heater off', 'aquecedor desligado'));
    return {
      observed: pick(lang, `the room reads ${c.readingC} °C`, `a sala marca ${c.readingC} °C`),
      compared: pick(lang, `band ${c.band.lowC}–${c.band.highC} °C`, `faixa ${c.band.lowC}–${c.band.highC} °C`),
      decided: heat(c.wantHeating),
      acted: heat(c.heating),
    };
  },
  card: {
    year: 1885,
    name: { en: 'thermostat', 'pt-BR': 'termostato' },
    observe: { en: 'the room’s temperature', 'pt-BR': 'a temperatura da sala' },
    compare: { en: 'the reading against the set point’s band', 'pt-BR': 'a leitura com a faixa do ponto de ajuste' },
    act: { en: 'switch the heater on or off', 'pt-BR': 'liga ou desliga o aquecedor' },
  },
  tour: {
    scenario: 'thermostat-morning',
    moment: 'draught',
    point: {
      en: 'The smallest loop: read, compare with a band, switch — and the room moves between readings.',
      'pt-BR': 'O menor laço: lê, compara com uma faixa, aciona — e a sala muda entre as leituras.',
    },
  },
  labels: LABELS,
};
