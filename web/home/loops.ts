import { LOOP_IDS } from '../../sim/loops/loop-id';
import { LOOP_UI } from '../loop-ui';
import type { LoopCard } from './card';

/** The loops in order of appearance (LOOP_IDS), the talk's lab last: each one's card is in its LOOP_UI entry. */
export const TIMELINE: readonly LoopCard[] = LOOP_IDS.map((id) => ({ id, ...LOOP_UI[id].card }));
