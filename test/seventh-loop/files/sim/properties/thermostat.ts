import type { ThermostatConfig, ThermostatContext } from '../../machines/thermostat/machine';
import type { CheckProperty, CheckState, CheckView, EnvMove, LoopCheck } from '../check/model';
import { opPositions, writeQueue } from '../check/queue-key';
import type { KeyWriter } from '../check/key-writer';
import { writeSnapshot } from '../check/snapshot-key';
import type { TimelineEntry } from '../runner';
import { InputError } from '../scenario/errors';
import type { LoadedScenario } from '../scenario/loaded-scenario';
import type { ThermostatFault, ThermostatWorld } from '../worlds/thermostat';
import { roomAt } from '../worlds/thermostat';

type View = CheckView<ThermostatWorld, ThermostatConfig, ThermostatContext>;
type Property = CheckProperty<ThermostatWorld, ThermostatConfig, ThermostatContext>;
type Entry = TimelineEntry<ThermostatFault, ThermostatConfig>;

/** One reading, a comparison and a switch, then the wait: the longest the room goes unwatched. */
const cycleMs = (config: ThermostatConfig, world: ThermostatWorld) => config.periodMs + world.readMs + world.switchMs;

/** Degrees the room can move while the loop is not looking: a sampled controller overshoots by up to one cycle's worth. */
export const overshootC = (config: ThermostatConfig, world: ThermostatWorld) => Math.ceil(cycleMs(config, world) / world.stepMs);

const room = (v: View) => roomAt(v.world, v.t);

const withinADegree = (config: ThermostatConfig): Property => ({
  name: 'within-a-degree',
  kind: 'always',
  claim: `the room never gets more than 1 °C above the band (${config.setpointC + config.hysteresisC} °C)`,
  holds: (v) => room(v) <= v.snapshot.context.config.setpointC + v.snapshot.context.config.hysteresisC + 1,
});

const heats: Property = {
  name: 'heats',
  kind: 'sometimes',
  claim: 'the heater is switched on at some point',
  holds: (v) => v.world.heaterOn,
};

function settles(config: ThermostatConfig, world: ThermostatWorld, withinPeriods = 1): Property {
  const margin = overshootC(config, world);
  const low = config.setpointC - config.hysteresisC - margin;
  const high = config.setpointC + config.hysteresisC + margin;
  // From the farthest the room can be (the outside, or the heater's maximum) back into the band, plus a cycle per `--within`.
  const withinMs =
    (Math.max(world.maxC, config.setpointC) - Math.min(world.outsideC, config.setpointC) + 2) * world.stepMs +
    withinPeriods * cycleMs(config, world);
  return {
    name: 'settles',
    kind: 'eventually',
    claim: `once left alone, the room stays within ${low}–${high} °C (the band widened by the overshoot of one cycle)`,
    holds: (v) => room(v) >= low && room(v) <= high,
    withinMs,
    within: `${withinMs / 1000}s: the widest swing at one degree per step, plus ${withinPeriods} cycle(s)`,
  };
}

function properties(
  config: ThermostatConfig,
  _alphabet: readonly EnvMove<ThermostatFault, ThermostatConfig>[],
  withinPeriods?: number,
  world?: ThermostatWorld,
): Property[] {
  if (!world) throw new Error("the thermostat's properties read the start world's timings");
  return [withinADegree(config), heats, settles(config, world, withinPeriods)];
}

/**
 * The thermostat promises to settle; how close it holds the band depends on its period against how
 * fast the room moves, so `within-a-degree` is a finding when it fails, not a broken promise.
 */
const promises = (): readonly string[] => ['settles'];

function label(entry: Entry): string {
  if ('config' in entry) return `set point ${entry.config.setpointC ?? '?'} °C`;
  return entry.fault.kind === 'draught' ? `draught −${entry.fault.dropC} °C` : `outside ${entry.fault.temperatureC} °C`;
}

function validate(scenario: LoadedScenario<ThermostatWorld, ThermostatFault, ThermostatConfig>): void {
  scenario.timeline.forEach((e, i) => {
    if ('config' in e)
      throw new InputError(
        scenario.file,
        `timeline[${i}].setpoint`,
        'expected no set point changes for check: the properties are judged against one set point',
      );
  });
}

/**
 * The canonical key: the machine's state and context (the config is fixed: validate), the room
 * settled at now — its temperature, and how far into the current degree it is unless the room
 * is pinned at the outside temperature or the heater's maximum — and the queue, times relative
 * to now. Op ids and the switch counter are dropped. Each part is written as its own field; an
 * optional part follows a flag that says whether it is there, a list follows its length.
 */
function canonicalizer() {
  return (state: CheckState<ThermostatWorld, ThermostatConfig, ThermostatContext>, key: KeyWriter): void => {
    const { t, world: w } = state;
    const c = state.snapshot.context;
    const temperature = roomAt(w, t);
    const pinned = w.heaterOn ? temperature >= w.maxC : temperature <= w.outsideC;
    writeSnapshot(state.snapshot, key);
    key.flag(c.readingC !== null);
    if (c.readingC !== null) key.num(c.readingC);
    key.flag(c.heating);
    key.flag(c.wantHeating);
    key.str(c.lastError ?? '');
    key.num(temperature);
    key.flag(w.heaterOn);
    key.num(w.outsideC);
    key.flag(pinned);
    if (!pinned) key.num((t - w.since) % w.stepMs);
    key.list(w.ops.length);
    for (const o of w.ops) {
      key.str(o.kind);
      if (o.kind === 'switch') key.flag(o.on);
    }
    writeQueue(state, key, opPositions(w.ops));
  };
}

export const thermostatCheck: LoopCheck<ThermostatWorld, ThermostatFault, ThermostatConfig, ThermostatContext> = {
  loop: 'thermostat',
  validate,
  label,
  applicable: () => true,
  canonicalizer,
  symmetry: { none: 'one room and one heater: nothing to interchange' },
  properties,
  promises,
};
