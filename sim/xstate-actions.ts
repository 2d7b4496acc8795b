import type { EventObject, ExecutableActionObject, SpecialExecutableAction } from 'xstate';

/**
 * The built-in XState actions whose params the stepper reads, checked at run time against the
 * installed XState's shapes, so a change in XState fails loudly (and in test/contract) instead of
 * silently dropping a timer. Types come from xstate's own declarations where it exports them.
 */
/** xstate's type leaves out `input`, which `resolveSpawn` also passes (the invoked actor's resolved input). */
type SpawnParams = Pick<Extract<SpecialExecutableAction, { type: 'xstate.spawnChild' }>['params'], 'id' | 'src'> & { input: unknown };
type RaiseParams = Extract<SpecialExecutableAction, { type: 'xstate.raise' }>['params'];
/** xstate 5.33 `resolveCancel` (actions/cancel.ts) resolves to `{ sendId }`; xstate exports no type for it. */
interface CancelParams {
  sendId: string;
}

export type BuiltinAction =
  | { type: 'xstate.spawnChild'; params: SpawnParams }
  | { type: 'xstate.raise'; params: RaiseParams }
  | { type: 'xstate.cancel'; params: CancelParams }
  | { type: 'other' };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isEvent = (v: unknown): v is EventObject => isRecord(v) && typeof v.type === 'string';
const optional = (v: unknown, type: 'string' | 'number') => v === undefined || typeof v === type;

function shapeError(type: string, expected: string, params: unknown): Error {
  return new Error(`${type}: expected params ${expected} (the shape of the installed XState), got ${JSON.stringify(params)}`);
}

/** Narrows an executed action to the built-ins the stepper acts on; throws if XState changed their shape. */
export function builtinAction(action: ExecutableActionObject): BuiltinAction {
  const p: unknown = action.params;
  switch (action.type) {
    case 'xstate.spawnChild':
      if (!isRecord(p) || typeof p.id !== 'string' || !('src' in p)) throw shapeError(action.type, '{ id, src, actorRef }', p);
      return { type: action.type, params: { id: p.id, src: p.src as SpawnParams['src'], input: p.input } }; // src: a name or logic, the caller checks
    case 'xstate.raise':
      if (!isRecord(p) || !isEvent(p.event) || !optional(p.delay, 'number') || !optional(p.id, 'string'))
        throw shapeError(action.type, '{ event, id?, delay? }', p);
      return { type: action.type, params: { event: p.event, id: p.id as string | undefined, delay: p.delay as number | undefined } }; // cast: optional() checked both types above
    case 'xstate.cancel':
      if (!isRecord(p) || typeof p.sendId !== 'string') throw shapeError(action.type, '{ sendId: string }', p);
      return { type: action.type, params: { sendId: p.sendId } };
    case 'xstate.sendTo':
      // No loop sends to another actor; a delayed sendTo would need its own queue item.
      throw new Error('xstate.sendTo is not supported by the simulator (machines talk to the world through invoked actors)');
    default:
      return { type: 'other' };
  }
}
