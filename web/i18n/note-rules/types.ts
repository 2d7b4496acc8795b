/** A rule's template: `$1` … are the match's groups, or a function of them; ⟦…⟧ marks quoted tool output. */
export type Template = string | ((match: string, ...groups: (string | undefined)[]) => string);
export type Rule = readonly [RegExp, Template];

/** A number, and a percentage, as the notes print them. */
export const N = String.raw`([\d.]+)`;
export const P = String.raw`([\d.]+%)`;

/** The first rule that matches the whole text, applied; undefined when none does. */
export function firstMatch(rules: readonly Rule[], text: string): string | undefined {
  for (const [re, template] of rules) {
    if (!re.test(text)) continue;
    // String.replace takes either form of template; TypeScript's overloads take them one at a time.
    return typeof template === 'string' ? text.replace(re, template) : text.replace(re, template);
  }
  return undefined;
}

/** `text` split at `separator` where it is not inside brackets ("update web (replicas 3, image x), create y"). */
function splitTop(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0,
    from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && text.startsWith(separator, i)) {
      out.push(text.slice(from, i));
      from = i + separator.length;
      i += separator.length - 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** A list ("a, b, c" or "a; b") translated item by item; an item no rule knows stays as it is (unmarked: a test finds it). */
export const eachOf =
  (rules: readonly Rule[], separator: string) =>
  (text: string): string =>
    splitTop(text, separator)
      .map((item) => firstMatch(rules, item) ?? item)
      .join(separator);

/** A group an optional part of a pattern did not match is undefined at run time. */
export const opt = (group: string | undefined, f: (g: string) => string): string => (group ? f(group) : '');

/** Every rule applied in turn, each wherever it matches (rules with the g flag): pieces of a longer sentence. */
export function applyAll(rules: readonly Rule[], text: string): string {
  let out = text;
  for (const [re, template] of rules) out = typeof template === 'string' ? out.replace(re, template) : out.replace(re, template);
  return out;
}
