import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT, packagePath } from '../package-root';

/** `true` in the package build (tools/build.ts); undeclared from source. */
declare const LOOPSCOPE_BUNDLED: true | undefined;

/** The lab folded into one file by the package build (tools/build.ts), the base of every export. */
const SINGLE_FILE_LAB = packagePath('dist', 'lab-single.html');

/** What the exported page opens with: its state (the lab's URL parameters) and, when the scenario is not one
 * the lab ships, the scenario's own text (the lab lists it with the shipped ones). */
export interface ExportedPage {
  state: string;
  scenario?: { id: string; text: string };
}

/** `</script` inside inlined code would end the element early; `<\/script` means the same in JS. */
const scriptSafe = (code: string) => code.replace(/<\/(script)/gi, '<\\/$1');
/** JSON or a query string inside a <script type="application/json">: no `<` at all. */
const jsonSafe = (text: string) => text.replace(/</g, '\\u003c');

/**
 * Builds the lab (vite, the project's config) into a temporary folder and folds it into ONE html file:
 * the script and the stylesheet inlined, every asset a data: URL. A page opened from file:// may not load
 * module scripts from other files (no origin), and a slide deck should not need a server or a network.
 */
export async function buildSingleFileLab(): Promise<string> {
  // Loaded here: vite is a build tool, absent from an installed package (which uses SINGLE_FILE_LAB).
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'loopscope-export-'));
  try {
    await build({
      configFile: join(PACKAGE_ROOT, 'vite.config.ts'),
      root: join(PACKAGE_ROOT, 'web'),
      logLevel: 'error',
      build: {
        outDir,
        emptyOutDir: true,
        cssCodeSplit: false,
        modulePreload: false,
        // Every asset inline (a data: URL), one JS chunk.
        assetsInlineLimit: () => true,
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
    let html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const assets = readdirSync(join(outDir, 'assets'));
    const unexpected = assets.filter((f) => !/\.(js|css)$/.test(f));
    if (unexpected.length) throw new Error(`the lab build wrote assets that cannot be inlined: ${unexpected.join(', ')}`);
    html = html.replace(
      /<script type="module"[^>]*\ssrc="\.\/assets\/([^"]+)"[^>]*><\/script>/g,
      (_m, file: string) => `<script type="module">${scriptSafe(readFileSync(join(outDir, 'assets', file), 'utf8'))}</script>`,
    );
    html = html.replace(
      /<link rel="stylesheet"[^>]*\shref="\.\/assets\/([^"]+)"[^>]*>/g,
      (_m, file: string) => `<style>${readFileSync(join(outDir, 'assets', file), 'utf8').replace(/<\/(style)/gi, '<\\/$1')}</style>`,
    );
    if (/\ssrc="\.\/assets\/|\shref="\.\/assets\//.test(html)) throw new Error('the lab build references a file the export did not inline');
    return html;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The single-file lab opening at `page`: the installed package's prebuilt one, or (from source, where
 * the lab may have changed since the last build) one built now. */
export async function buildLabHtml(page: ExportedPage): Promise<string> {
  // The build's boolean define read in place: esbuild folds the test to a constant and drops the other
  // branch, so the bundle holds no import of vite at all.
  const html = typeof LOOPSCOPE_BUNDLED !== 'undefined' ? readFileSync(SINGLE_FILE_LAB, 'utf8') : await buildSingleFileLab();
  const embedded =
    `<script id="loopscope-export-state" type="application/json">${jsonSafe(page.state)}</script>` +
    (page.scenario
      ? `\n<script id="loopscope-export-scenario" type="application/json">${jsonSafe(JSON.stringify(page.scenario))}</script>`
      : '');
  // Before the lab's script: it reads them as it starts.
  return html.replace('<div id="root"></div>', `${embedded}\n<div id="root"></div>`);
}
