/** A value as the plan renderer prints it: strings quoted, absent as null. */
const planValue = (v: string | number | boolean | null) => (v === null ? 'null' : JSON.stringify(v));

/** CSS class per symbol: the renderer colours + green, ~ yellow, - red, replacements both. */
export const SYMBOL_CLASS: Record<string, string> = { '+': 'tf-create', '~': 'tf-update', '-': 'tf-delete', '-/+': 'tf-replace', '+/-': 'tf-replace', ' ': 'tf-noop' };

/** `"a" → "b"` for an update or replace, `"b"` for a new object, `"a" → null` for a destroyed one. */
export const attrChange = (before: string | number | boolean | null, after: string | number | boolean | null) =>
  (before === null ? planValue(after) : `${planValue(before)} → ${planValue(after)}`);
