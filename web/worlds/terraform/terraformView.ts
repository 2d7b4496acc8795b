/** A value as the plan renderer prints it: strings quoted, absent as null. */
const planValue = (v: string | number | boolean | null) => (v === null ? 'null' : JSON.stringify(v));

/** CSS class per symbol: the renderer colours + green, ~ yellow, - red, replacements both. */
export const SYMBOL_CLASS: Record<string, string> = {
  '+': 'terraform-create',
  '~': 'terraform-update',
  '-': 'terraform-delete',
  '-/+': 'terraform-replace',
  '+/-': 'terraform-replace',
  ' ': 'terraform-noop',
};

/** `"a" → "b"` for an update or replace, `"b"` for a new object, `"a" → null` for a destroyed one. */
export const attrChange = (before: string | number | boolean | null, after: string | number | boolean | null) =>
  before === null ? planValue(after) : `${planValue(before)} → ${planValue(after)}`;
