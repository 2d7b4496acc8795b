import type { FrameOf } from '../../../sim/trace';
import { controllerOf } from '../../../sim/trace';
import { useLanguage, useT } from '../../i18n/i18n';
import type { WorldViewProps } from '../types';

/** The room: its temperature against the thermostat's band, and the heater. */
export function ThermostatWorldView({ frame }: WorldViewProps<FrameOf<'thermostat'>>) {
  const t = useT();
  const lang = useLanguage();
  const w = frame.world;
  const band = controllerOf(frame, 'thermostat')?.band;
  const heater = w.heaterOn
    ? lang === 'pt-BR'
      ? 'aquecedor ligado'
      : 'heater on'
    : lang === 'pt-BR'
      ? 'aquecedor desligado'
      : 'heater off';
  return (
    <section className="world thermostat-world" data-testid="world">
      <h3>{t('world')}</h3>
      <p data-testid="thermostat-room" data-temperature={w.temperatureC} data-heater={w.heaterOn ? 'on' : 'off'}>
        {w.temperatureC} °C · {heater}
        {band ? ` · ${band.lowC}–${band.highC} °C` : ''}
      </p>
    </section>
  );
}
