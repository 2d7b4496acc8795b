import type { HpaConfig, HpaContext } from '../../machines/incus-hpa';
import type { CheckState } from '../check/model';
import type { TimelineEntry } from '../runner';
import { drawHex } from '../random';
import type { HpaFault, HpaWorld } from '../worlds/incus-hpa';
import { nameAtRank, rankOf } from '../worlds/incus-hpa-names';

/**
 * Where a created name sorts, as the model checker's choice. Incus lists instances by name and every
 * policy reads that order, while the HPA's names end in random hex (sim/worlds/incus-hpa-names.ts):
 * a seeded world draws one order, the real host any. The canonical key keeps only the order of
 * created names, so without this choice the search would merge states whose generators would put
 * the next name in different places and follow one of them — the swarm's finding on
 * incus-hpa-check-flapping. So just before a create begins, the environment may place the new name
 * after any number of the instances there; the seed's own draw is the move not made.
 */
export function nameChoices(
  start: { config: HpaConfig; world: HpaWorld },
  alphabet: readonly TimelineEntry<HpaFault, HpaConfig>[],
): TimelineEntry<HpaFault, HpaConfig>[] {
  // Every instance there can be: the start's, those the environment adds, and the HPA's own (stopped leftovers included).
  const added = alphabet.filter((e) => 'fault' in e && e.fault.kind === 'addInstance').length;
  const most = start.world.instances.length + added + 2 * start.config.maxPods;
  return Array.from({ length: most + 1 }, (_, rank) => ({ at: 0, fault: { kind: 'nameNext' as const, rank } }));
}

type State = CheckState<HpaWorld, HpaConfig, HpaContext>;

/**
 * The instances the next step's create sorts its name among, when the next step begins one: the
 * compare step that decided a create first, or an operation in flight whose success leads to a
 * create (a delete first takes its instance away). Undefined when the next step creates nothing.
 */
function namesAtNextCreate(state: State, world: HpaWorld): string[] | undefined {
  const ctx = state.snapshot.context;
  const value = state.snapshot.value;
  const names = () => world.instances.map((i) => i.name);
  if (value === 'comparing') return ctx.pending[0]?.kind === 'create' && !ctx.policyFailed ? names() : undefined;
  if (typeof value !== 'object' || value === null || !('acting' in value)) return undefined;
  if (ctx.pending[1]?.kind !== 'create') return undefined;
  const first = ctx.pending[0];
  if (value.acting === 'deleting' && first?.kind === 'delete') return names().filter((n) => n !== first.name);
  return value.acting === 'creating' ? names() : undefined;
}

/** The generator's next draw, per generator state (states share it until a create draws). */
const nextDraw = new WeakMap<HpaWorld['rng'], string>();
function drawnNext(world: HpaWorld): string {
  let hex = nextDraw.get(world.rng);
  if (hex === undefined) {
    hex = drawHex(world.rng, 8)[0];
    nextDraw.set(world.rng, hex);
  }
  return hex;
}

/** Whether placing the next name after `rank` instances is a choice here, other than the seed's own draw. */
export function nameChoiceApplies(state: State, world: HpaWorld, rank: number): boolean {
  if (world.nextNameRank !== undefined) return false;
  const names = namesAtNextCreate(state, world);
  if (!names || rank > names.length) return false;
  const prefix = state.snapshot.context.config.namePrefix;
  if (rankOf(`${prefix}${drawnNext(world)}`, names) === rank) return false;
  return nameAtRank(prefix, names, rank) !== undefined;
}

/**
 * Whether the environment has placed the next name and the create comes next: then nothing else
 * happens first. Sound: a move made before the create is the same as that move, then the choice —
 * offered again in the state the move leads to — so the choice need not wait for other moves.
 */
export const nameChoicePending = (state: State, world: HpaWorld): boolean =>
  world.nextNameRank !== undefined && namesAtNextCreate(state, world) !== undefined;
