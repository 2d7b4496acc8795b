import type { ComponentType } from 'react';
import type { Frame } from '../../sim/trace';
import type { LabSession } from '../lab/session';

export interface WorldViewProps { session: LabSession; frame: Frame }

/** What the lab draws for one loop. Only `World` is needed; the rest appear when present. */
export interface LoopViews {
  World: ComponentType<WorldViewProps>;
  /** Charts over the recorded frames. */
  Charts?: ComponentType<WorldViewProps>;
  /** Faults a presenter can inject while it runs (simulations only). */
  Interventions?: ComponentType<WorldViewProps>;
  /** The desired-state editor (simulations only). */
  Editor?: ComponentType<WorldViewProps>;
}
