/**
 * Whether a value is one of a fixed list's members, narrowing it to the list's type: the typed
 * form of `list.includes(value)`, which TypeScript only accepts for a value already of that type.
 */
export function isOneOf<T>(list: readonly T[], value: unknown): value is T {
  const members: readonly unknown[] = list;
  return members.includes(value);
}
