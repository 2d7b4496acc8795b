// The thermostat's frame.controller, as the trace format reads it: zod only, so the trace format
// sits below the worlds; sim/loops/thermostat.ts fills it from the machine's context.
import { z } from 'zod';

/** frame.controller for the thermostat: its last reading, the band it compares with and what it asked for. */
export const thermostatControllerSchema = z.object({
  loop: z.literal('thermostat'),
  readingC: z.number().nullable(),
  band: z.object({ lowC: z.number(), highC: z.number() }),
  heating: z.boolean(),
  wantHeating: z.boolean(),
  lastError: z.string().nullable(),
});
export type ThermostatController = z.infer<typeof thermostatControllerSchema>;
