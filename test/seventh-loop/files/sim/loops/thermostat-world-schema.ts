// The thermostat's frame.world, as the trace format reads it (sim/loop-schemas.ts): the summary
// function that fills it is sim/worlds/thermostat.ts. The summary's type is declared here, with its
// schema, so the trace format imports no world.
import { z } from 'zod';
import type { WorldObject } from '../world-object';

export interface ThermostatWorldSummary {
  temperatureC: number;
  outsideC: number;
  heaterOn: boolean;
  switches: number;
}

export const thermostatWorldSchema: z.ZodType<ThermostatWorldSummary, WorldObject> = z.looseObject({
  temperatureC: z.number(),
  outsideC: z.number(),
  heaterOn: z.boolean(),
  switches: z.number(),
});
