import type { ComponentType } from 'react';
import type { Frame } from '../../sim/trace';
import type { LabSession } from '../lab/session';

/** A view's props: the session and the frame on screen — typed as its loop's (FrameOf<L>) in a loop's own views. */
export interface WorldViewProps<F extends Frame = Frame> {
  session: LabSession;
  frame: F;
}

/** What the lab draws for one loop. Only `World` is needed; the rest appear when present. */
export interface LoopViews<F extends Frame = Frame> {
  World: ComponentType<WorldViewProps<F>>;
  /** Charts over the recorded frames. */
  Charts?: ComponentType<WorldViewProps<F>>;
  /** Faults a presenter can inject while it runs (simulations only). */
  Interventions?: ComponentType<WorldViewProps<F>>;
  /** The desired-state editor (simulations only). */
  Editor?: ComponentType<WorldViewProps<F>>;
}
