// The README is the front door and docs/ the manual: every link between them must land on a file (and a
// heading) that exists, no link may leave the repository (the docs are read offline, from a clone or the
// package), the README stays short, and every long page opens with its table of contents.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headings, links, slug, tableOfContents, withoutCode } from './markdown';

const ROOT = resolve(import.meta.dirname, '../..');
const README_MAX_LINES = 250;
const TOC_FROM_LINES = 100;

const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');
const lineCount = (text: string) => text.replace(/\n$/, '').split('\n').length;

/** Problems with one page's links, each as `page:line: target: what is wrong`. */
function linkProblems(page: string, markdown: string, readPage: (path: string) => string | null): string[] {
  const problems: string[] = [];
  for (const { line, target } of links(markdown)) {
    const at = `${page}:${line}: ${target}`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || /^www\./i.test(target)) {
      problems.push(`${at}: leaves the repository (expected a relative path)`);
      continue;
    }
    if (target.startsWith('/')) { problems.push(`${at}: absolute path (expected one relative to ${page})`); continue; }
    const [pathPart = '', fragment] = target.split('#', 2);
    const path = decodeURIComponent(pathPart.split('?')[0] ?? '');
    const file = path === '' ? page : relative(ROOT, resolve(ROOT, dirname(page), path));
    if (file === '..' || file.startsWith(`..${sep}`)) { problems.push(`${at}: points outside the repository`); continue; }
    if (path !== '' && !existsSync(join(ROOT, file))) { problems.push(`${at}: no such file (${file})`); continue; }
    if (fragment === undefined || fragment === '') continue;
    const text = path === '' ? markdown : file.endsWith('.md') && statSync(join(ROOT, file)).isFile() ? readPage(file) : null;
    if (text === null) { problems.push(`${at}: an anchor into a file that is not a Markdown page`); continue; }
    if (!headings(text).some((h) => h.anchor === decodeURIComponent(fragment))) problems.push(`${at}: no heading with anchor #${fragment} in ${file}`);
  }
  return problems;
}

/** Problems with one page's table of contents (required from TOC_FROM_LINES lines on). */
function tocProblems(page: string, markdown: string): string[] {
  if (lineCount(markdown) <= TOC_FROM_LINES) return [];
  const toc = tableOfContents(markdown);
  if (toc === null) return [`${page}: ${lineCount(markdown)} lines and no table of contents (a bulleted list of links to its headings right under the title)`];
  const [, ...sections] = headings(markdown).filter((h) => h.level <= 3);
  return sections.filter((h) => !toc.anchors.includes(h.anchor)).map((h) => `${page}:${h.line}: heading "${h.text}" is not in the table of contents (#${h.anchor})`);
}

const readRepoPage = (path: string) => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : null);

describe('README.md and docs/', () => {
  it('finds the pages', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES.length).toBeGreaterThan(1);
  });

  it('every link points at a file in the repository that exists (and a heading that exists)', () => {
    expect(PAGES.flatMap((page) => linkProblems(page, read(page), readRepoPage))).toEqual([]);
  });

  it(`README.md is at most ${README_MAX_LINES} lines`, () => {
    expect(lineCount(read('README.md'))).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it(`every page over ${TOC_FROM_LINES} lines opens with a table of contents listing its headings`, () => {
    expect(PAGES.flatMap((page) => tocProblems(page, read(page)))).toEqual([]);
  });

  it('the README links to every page in docs/', () => {
    const linked = new Set(links(read('README.md')).map((l) => l.target.split('#')[0]));
    expect(PAGES.filter((p) => p !== 'README.md' && !linked.has(p))).toEqual([]);
  });
});

// The checks above pass on the real pages only if they can fail: each broken case here must be caught.
describe('the checks catch', () => {
  const none = () => null;
  const page = (body: string) => `# Title\n\n${body}\n`;

  it('a link to a missing file, and one outside the repository', () => {
    expect(linkProblems('docs/x.md', page('[a](nope.md) [b](../../etc/passwd) ![c](gallery/missing.png)'), none)).toHaveLength(3);
    expect(linkProblems('docs/x.md', page('[a](FIDELITY.md) ![c](gallery/home.png) [r](../README.md)'), readRepoPage)).toEqual([]);
  });

  it('links that leave the repository: inline, bare, autolink, reference, HTML, absolute', () => {
    const md = page('[a](https://example.org) see http://example.org <https://x.org>\n[r]: http://y.org\n<img src="https://z.org/p.png"> [s](/etc/hosts) [m](mailto:a@b.c)');
    expect(linkProblems('README.md', md, none).filter((p) => /leaves the repository|absolute/.test(p))).toHaveLength(7);
  });

  it('but not a URL inside code', () => {
    expect(linkProblems('README.md', page('`http://127.0.0.1:5173`\n\n```sh\nnpm start # http://127.0.0.1:5173\n```'), none)).toEqual([]);
    expect(withoutCode('a `b\nc` d')).toBe('a   \n   d');
  });

  it('an anchor no heading has', () => {
    const md = page('[ok](#the-lab) [bad](#no-such-heading)\n\n## The lab');
    expect(linkProblems('docs/x.md', md, none)).toEqual(['docs/x.md:3: #no-such-heading: no heading with anchor #no-such-heading in docs/x.md']);
  });

  it("GitHub's anchors: punctuation dropped, spaces to dashes, repeats numbered", () => {
    expect(slug('Search options (`loopscope check`)')).toBe('search-options-loopscope-check');
    expect(slug('Bounds (hpa.yaml, simulated or real)')).toBe('bounds-hpayaml-simulated-or-real');
    expect(slug("Liveness's cost")).toBe('livenesss-cost');
    expect(headings('# a\n## Notes\n## Notes\n```\n## not a heading\n```').map((h) => h.anchor)).toEqual(['a', 'notes', 'notes-1']);
  });

  it('a long page without a table of contents, or with one that misses a heading', () => {
    const filler = Array.from({ length: TOC_FROM_LINES }, (_, i) => `line ${i}`).join('\n');
    expect(tocProblems('docs/x.md', `# T\n\n${filler}\n## A\n`)).toHaveLength(1);
    expect(tocProblems('docs/x.md', `# T\n\n- [A](#a)\n\n${filler}\n## A\n### B\n`)).toEqual([`docs/x.md:${TOC_FROM_LINES + 6}: heading "B" is not in the table of contents (#b)`]);
    expect(tocProblems('docs/x.md', `# T\n\n- [A](#a)\n  - [B](#b)\n\n${filler}\n## A\n### B\n`)).toEqual([]);
  });
});
