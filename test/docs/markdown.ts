// Just enough of Markdown (as GitHub renders it) to check the docs' links, anchors and tables of
// contents: code is blanked first, since a URL or a `# comment` inside code is neither a link nor a heading.

export interface Heading { line: number; level: number; text: string; anchor: string }
export interface Link { line: number; target: string }

/** The lines with those of fenced code blocks emptied (line numbers kept). */
function withoutFences(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && opener !== undefined) { fence = opener; return ''; }
    if (fence !== null) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) fence = null;
      return '';
    }
    return line;
  });
}

/** The text with fenced code blocks and inline code spans replaced by spaces (line numbers kept). */
export function withoutCode(markdown: string): string {
  // An inline code span may wrap onto the next line, never across a blank line (a new paragraph).
  return withoutFences(markdown).join('\n').replace(/(`+)(?:(?!\n[ \t]*\n)[\s\S])*?\1/g, (span) => span.replace(/[^\n]/g, ' '));
}

/** GitHub's heading anchor (github-slugger): lower case, punctuation and symbols dropped, each space a dash. */
export function slug(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

export function headings(markdown: string): Heading[] {
  const seen = new Map<string, number>();
  const out: Heading[] = [];
  // A heading's own `code` is part of its text (and of its anchor, minus the backticks).
  withoutFences(markdown).forEach((line, i) => {
    const m = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (!m?.[1] || m[2] === undefined) return;
    const base = slug(m[2]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.push({ line: i + 1, level: m[1].length, text: m[2], anchor: count === 0 ? base : `${base}-${count}` });
  });
  return out;
}

/** Every link and image target outside code: inline, reference definitions, HTML href/src, autolinks. */
export function links(markdown: string): Link[] {
  const out = new Map<string, Link>();
  withoutCode(markdown).split('\n').forEach((line, i) => {
    // One target may match twice (a reference definition's URL is also a bare URL): keep it once.
    const add = (target: string | undefined) => { if (target !== undefined) out.set(`${i + 1} ${target}`, { line: i + 1, target }); };
    for (const m of line.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"]*")?\s*\)/g)) add(m[1]);
    for (const m of line.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)) add(m[1]);
    for (const m of line.matchAll(/\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)) add(m[1]);
    for (const m of line.matchAll(/<([a-z][a-z0-9+.-]*:[^\s>]*)>/gi)) add(m[1]);
    // GitHub also turns a bare URL in prose into a link.
    for (const m of line.matchAll(/(?<![\w(<"'/])((?:https?:\/\/|www\.)[^\s<)]+)/gi)) add(m[1]);
  });
  return [...out.values()];
}

/** The bulleted list of in-page links right under the title, or null when the title is not followed by one. */
export function tableOfContents(markdown: string): { anchors: string[] } | null {
  const lines = withoutCode(markdown).split('\n');
  const title = lines.findIndex((line) => /^# /.test(line));
  if (title < 0) return null;
  let i = title + 1;
  while (i < lines.length && lines[i]?.trim() === '') i += 1;
  const anchors: string[] = [];
  for (; i < lines.length; i += 1) {
    const m = /^\s*[-*] +\[[^\]]+\]\(#([^)\s]+)\)\s*$/.exec(lines[i] ?? '');
    if (!m?.[1]) break;
    anchors.push(decodeURIComponent(m[1]));
  }
  return anchors.length ? { anchors } : null;
}
