import type { Trace } from '../trace';
import type { CheckProperty, CheckView } from './model';

/**
 * A property that judges a state against another history (a differential oracle, e.g.
 * sim/properties/kubernetes/differential.ts): for the state at the end of its counterexample it
 * gives that other history's trace and what differs, and the report shows both.
 */
export interface OtherHistory {
  label: string;
  trace: Trace;
  difference: string;
}

export interface ComparesHistories<W, C, X = unknown> extends CheckProperty<W, C, X> {
  other(view: CheckView<W, C, X>): OtherHistory | undefined;
}

export const comparesHistories = <W, C>(p: CheckProperty<W, C>): p is ComparesHistories<W, C> =>
  typeof (p as Partial<ComparesHistories<W, C>>).other === 'function'; // cast: Partial, and the field's type is checked here
