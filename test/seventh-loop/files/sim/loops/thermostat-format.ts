import type { Frame } from '../trace';
import type { ThermostatWorldSummary } from './thermostat-world-schema';

/** "21 °C  heater on " — the room and the heater, between the time and the note. */
export function thermostatColumns(frame: Frame<ThermostatWorldSummary>): string {
  const w = frame.world;
  return `${String(w.temperatureC).padStart(3)} °C  heater ${w.heaterOn ? 'on ' : 'off'}`;
}
