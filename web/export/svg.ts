/** Text and attribute values inside SVG/XML: the five characters XML reserves. */
export function xml(text: string | number): string {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** The fonts the lab uses (system fonts only: an exported file needs no network). */
const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, DejaVu Sans, sans-serif';

/** The lab's colours (web/styles.css :root), written out: a standalone SVG has no stylesheet. */
export const COLOURS = {
  bg: '#ffffff',
  fg: '#1b1f24',
  muted: '#5b6570',
  line: '#d5dae0',
  card: '#ffffff',
  compound: '#f0f2f5',
  observe: '#1f6feb',
  compare: '#8250df',
  act: '#cf6a00',
  wait: '#57606a',
  error: '#cf222e',
  activeFill: '#fff8e6',
  path: '#8c959f',
} as const;

export const phaseColour = (tag: string | undefined): string =>
  tag === 'observe' || tag === 'compare' || tag === 'act' || tag === 'wait' || tag === 'error' ? COLOURS[tag] : COLOURS.fg;

/** A whole SVG document: explicit width/height (a PNG of it has that size) and a white background for slides. */
export function svgDocument(width: number, height: number, body: string, title: string): string {
  const w = Math.ceil(width),
    h = Math.ceil(height);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="${xml(FONT)}">\n` +
    `<title>${xml(title)}</title>\n<rect width="${w}" height="${h}" fill="${COLOURS.bg}"/>\n${body}</svg>\n`
  );
}
