// The examples of docs/api.md, as files: each fenced block whose first line names a file
// (`// name.ts`, `# name.yaml`) is written under that name, so the tests run what the page shows.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const API_PAGE = 'docs/api.md';

export interface CodeBlock {
  /** The fence's language (`ts`, `yaml`, `sh`, or empty). */
  lang: string;
  /** The file the block's first line names, if it names one. */
  name?: string;
  code: string;
  /** 1-based line of the opening fence in the page. */
  line: number;
}

const FILE_NAME = /^(?:\/\/|#) ([\w.-]+\.(?:ts|mts|yaml))$/;

/** Every fenced block of a Markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    const name = FILE_NAME.exec(body[0] ?? '')?.[1];
    blocks.push({ lang: open[1] ?? '', ...(name !== undefined ? { name } : {}), code: `${body.join('\n')}\n`, line: start + 1 });
  }
  return blocks;
}

/** The blocks of docs/api.md. */
export const apiPageBlocks = (): CodeBlock[] => codeBlocks(readFileSync(join(ROOT, API_PAGE), 'utf8'));
