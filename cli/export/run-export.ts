// `loopscope export`'s work, loaded only when the command runs (ELK, the statechart layout, the lab's
// HTML builder and playwright are heavy: every other command starts without them).
import ELK from 'elkjs/lib/elk.bundled.js';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runnerFor } from '../../sim/loops';
import { formatDuration, parseDuration } from '../../sim/units';
import { exportFigures, figureStem } from '../../web/export/figures';
import type { Language } from '../../web/i18n/messages';
import { LANGUAGES } from '../../web/i18n/messages';
import { machineGraph } from '../../web/statechart/graph';
import { labelGraph } from '../../web/statechart/labels';
import { layoutGraph } from '../../web/statechart/layout';
import { buildLabHtml } from './lab-html';
import { requirePngTools, svgsToPngs } from './png';
import { packagePath } from '../package-root';
import { UsageError, parseSeed } from '../usage';

import { EXPORT_FORMATS, type ExportFormat as Format } from './formats';
import { isOneOf } from '../../sim/one-of';

function parseFormats(text: string): Set<Format> {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const formats = items.filter((f) => isOneOf(EXPORT_FORMATS, f));
  if (items.length === 0 || formats.length < items.length)
    throw new UsageError('--format', `expected a comma-separated list of ${EXPORT_FORMATS.join(', ')}, got "${text}"`);
  return new Set(formats);
}

/** The output folder: an existing directory, or one that can be created under an existing directory (created later, after every check). */
function checkOutDir(dir: string): string {
  const abs = resolve(dir);
  if (existsSync(abs)) {
    if (!statSync(abs).isDirectory()) throw new UsageError('--out', `expected a directory, got "${dir}" (a file)`);
    return abs;
  }
  let parent = dirname(abs);
  while (!existsSync(parent) && parent !== dirname(parent)) parent = dirname(parent);
  if (!statSync(parent).isDirectory())
    throw new UsageError('--out', `expected a directory that can be created, got "${dir}" (${parent} is a file)`);
  return abs;
}

/** The lab's URL parameters for the exported moment (the page keeps them in its hash). */
function labState(
  loop: string,
  scenario: string,
  o: { seed?: number; policy?: string; t: number; lang: Language; presenter: boolean },
): string {
  const p = new URLSearchParams({ loop, scenario });
  if (o.presenter) p.set('presenter', '1');
  if (o.seed !== undefined) p.set('seed', String(o.seed));
  if (o.policy) p.set('policy', o.policy);
  p.set('t', String(Math.round(o.t)));
  if (o.lang !== 'en') p.set('lang', o.lang);
  return p.toString();
}

const SHIPPED = packagePath('scenarios');
/** With no scenario named, the talk's: a slide deck's lab, opening in presenter mode. */
const TALK = join(SHIPPED, 'talk-lab.yaml');

export interface ExportOptions {
  out: string;
  format: string;
  at?: string;
  seed?: string;
  policy?: string;
  lang: string;
  scale: string;
}

export async function runExport(given: string | undefined, opts: ExportOptions): Promise<void> {
  const file = given ?? TALK;
  const presenter = given === undefined;
  // Every check first: bad input writes nothing.
  const formats = parseFormats(opts.format);
  if (!isOneOf(LANGUAGES, opts.lang)) throw new UsageError('--lang', `expected one of ${LANGUAGES.join(', ')}, got "${opts.lang}"`);
  const lang: Language = opts.lang;
  if (!/^[1-4]$/.test(opts.scale)) throw new UsageError('--scale', `expected a whole number from 1 to 4, got "${opts.scale}"`);
  const scale = Number(opts.scale);
  const at = opts.at === undefined ? undefined : parseDuration(opts.at);
  if (at === null) throw new UsageError('--at', `expected a time like 90s, 2m30s or 1h, got "${opts.at}"`);
  const seed = opts.seed === undefined ? undefined : parseSeed(opts.seed);
  const out = checkOutDir(opts.out);
  if (!existsSync(file) || !statSync(file).isFile())
    throw new UsageError(
      '<scenario>',
      `expected a scenario YAML file, got "${file}" (${existsSync(file) ? 'a directory' : 'no such file'})`,
    );
  const { entry, scenario, runner } = runnerFor(file, {
    ...(seed !== undefined ? { seed } : {}),
    ...(opts.policy ? { policy: opts.policy } : {}),
  });
  const moment = at ?? scenario.durationMs;
  if (moment > scenario.durationMs)
    throw new UsageError(
      '--at',
      `expected a time within the scenario (it ends at ${formatDuration(scenario.durationMs)}), got "${opts.at}"`,
    );
  if (formats.has('png')) await requirePngTools();

  runner.run(moment);
  const written: string[] = [];
  mkdirSync(out, { recursive: true });
  const write = (name: string, data: string | Buffer) => {
    const path = join(out, name);
    writeFileSync(path, data);
    written.push(path);
  };
  const stem = figureStem(scenario.name, moment);
  if (formats.has('svg') || formats.has('png')) {
    const machine = entry.binding.machine;
    const layout = await layoutGraph(new ELK(), labelGraph(entry.id, machineGraph(machine)));
    const frames = runner.frames;
    const figures = exportFigures({
      machine,
      layout,
      loop: entry.id,
      scenario: scenario.name,
      frames,
      index: frames.length - 1,
      config: runner.config,
      lang,
    });
    const pictures = [['statechart', figures.statechart] as const, ...(figures.chart ? [['chart', figures.chart] as const] : [])];
    if (formats.has('svg')) for (const [kind, p] of pictures) write(`${stem}-${kind}.svg`, p.svg);
    if (formats.has('png')) {
      const pngs = await svgsToPngs(
        pictures.map(([, p]) => p),
        scale,
      );
      pictures.forEach(([kind], i) => write(`${stem}-${kind}.png`, pngs[i]!));
    }
  }
  if (formats.has('html')) {
    const state = labState(entry.id, scenario.name, {
      ...(seed !== undefined ? { seed } : {}),
      ...(opts.policy ? { policy: opts.policy } : {}),
      t: moment,
      lang,
      presenter,
    });
    // A scenario the lab does not ship travels inside the page (same name and text as the file).
    const text = readFileSync(file, 'utf8');
    const shipped = join(SHIPPED, basename(file));
    const isShipped = existsSync(shipped) && readFileSync(shipped, 'utf8') === text;
    write(`${scenario.name}.html`, await buildLabHtml({ state, ...(isShipped ? {} : { scenario: { id: scenario.name, text } }) }));
    written.push(`${pathToFileURL(join(out, `${scenario.name}.html`)).href}#${state}`);
  }
  process.stdout.write(written.map((w) => `${w}\n`).join(''));
}
