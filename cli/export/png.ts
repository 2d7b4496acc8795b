import { existsSync } from 'node:fs';
import { ExitError } from '../exit';

/** Debian's chromium (.ci/setup-chromium.sh); LOOPSCOPE_CHROMIUM names another. */
const chromiumPath = (): string => process.env.LOOPSCOPE_CHROMIUM ?? '/usr/bin/chromium';

function requireChromium(): string {
  const path = chromiumPath();
  if (!existsSync(path))
    throw new ExitError(
      1,
      `export --format png: needs chromium at ${path} to draw the SVGs (install it, e.g. .ci/setup-chromium.sh, set LOOPSCOPE_CHROMIUM, or leave png out of --format)`,
    );
  return path;
}

/** playwright-core drives chromium; it is an optional dependency of the package (only PNGs need it). */
async function playwright(): Promise<typeof import('playwright-core')> {
  try {
    return await import('playwright-core');
  } catch {
    throw new ExitError(
      1,
      'export --format png: needs the optional package playwright-core (npm install playwright-core), or leave png out of --format',
    );
  }
}

/** Everything PNGs need, checked before anything is written. */
export async function requirePngTools(): Promise<void> {
  await playwright();
  requireChromium();
}

export interface Picture {
  svg: string;
  width: number;
  height: number;
}

/**
 * Draws SVGs into PNGs with headless chromium (the browser the lab runs in draws the same text the
 * same way), `scale` device pixels per SVG pixel: a PNG is width×scale by height×scale.
 */
export async function svgsToPngs(pictures: Picture[], scale: number): Promise<Buffer[]> {
  const browser = await (
    await playwright()
  ).chromium.launch({
    executablePath: requireChromium(),
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const out: Buffer[] = [];
    for (const p of pictures) {
      const context = await browser.newContext({ viewport: { width: p.width, height: p.height }, deviceScaleFactor: scale });
      const page = await context.newPage();
      // No network: the SVG is inline and uses system fonts only.
      await page.route('**/*', (r) => (r.request().url().startsWith('data:') ? r.continue() : r.abort()));
      await page.setContent(`<!doctype html><html><body style="margin:0">${p.svg.replace(/^<\?xml[^>]*>\s*/, '')}</body></html>`);
      out.push(await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: p.width, height: p.height } }));
      await context.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}
