import type { AnyMachineSnapshot } from 'xstate';

/**
 * A machine snapshot whose context is the loop machine's `X`: what a loop's runner hands out and
 * its properties and canonical keys read. The stepper holds any machine's snapshot; a loop's own
 * code sees its context typed (defineLoop ties a check's `X` to the binding's machine).
 */
export type ViewSnapshot<X> = WithContext<AnyMachineSnapshot, X>;
/** Per member of the snapshot union (active, done, error, stopped), so `status` still narrows. */
type WithContext<S, X> = S extends unknown ? Omit<S, 'context'> & { readonly context: X } : never;
