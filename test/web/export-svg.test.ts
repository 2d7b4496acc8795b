import ELK from 'elkjs/lib/elk.bundled.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { expect, it } from 'vitest';
import { LOOP_IDS, runnerFor } from '../../sim/loops';
import { exportFigures } from '../../web/export/figures';
import { machineGraph } from '../../web/statechart/graph';
import { layoutGraph } from '../../web/statechart/layout';
import { requires } from '../prerequisites';

const withXmllint = await requires('xmllint');
const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-svg-'));
/** One shipped, non-check scenario per loop. */
const FIRST = LOOP_IDS.map((loop) =>
  readdirSync(join(ROOT, 'scenarios'))
    .sort()
    .find(
      (f) => !f.includes('-check-') && (parse(readFileSync(join(ROOT, 'scenarios', f), 'utf8')) as { loop?: string } | null)?.loop === loop,
    )!,
);

withXmllint.describe('slide pictures (web/export): the statechart and the chart of every loop as SVG', () => {
  it.each(FIRST)('%s: well-formed SVG, the active state lit, every series a step line', async (file) => {
    const { entry, scenario, runner } = runnerFor(join(ROOT, 'scenarios', file));
    runner.run(Math.min(scenario.durationMs, 5 * 60_000));
    const graph = machineGraph(entry.binding.machine);
    const figures = exportFigures({
      machine: entry.binding.machine,
      layout: await layoutGraph(new ELK(), graph),
      loop: entry.id,
      scenario: scenario.name,
      frames: runner.frames,
      index: runner.frames.length - 1,
      config: runner.config,
      lang: 'pt-BR',
    });
    for (const [kind, p] of Object.entries(figures)) {
      const path = join(dir, `${scenario.name}-${kind}.svg`);
      writeFileSync(path, p.svg);
      const lint = spawnSync('xmllint', ['--noout', path], { encoding: 'utf8' });
      expect(lint.error, `xmllint on ${path}`).toBeUndefined();
      expect(lint.stderr).toBe('');
      expect(p.svg).toMatch(new RegExp(`^<\\?xml[^>]*>\\n<svg [^>]*width="${p.width}" height="${p.height}"`));
    }
    // The leaf state of the last frame and each of its ancestors are lit.
    const state = runner.frames.at(-1)!.state;
    expect((figures.statechart.svg.match(/data-active="true"/g) ?? []).length).toBe(state.split('.').length);
    const chart = figures.chart!;
    expect(chart.svg).toContain('Ao longo do tempo');
    // Steps only: after the first point, horizontal and vertical moves (a change at an event is never a ramp).
    for (const d of chart.svg.matchAll(/data-series="[^"]*" d="([^"]+)"/g))
      expect(d[1]).toMatch(/^M[\d.]+,[\d.]+( (H[\d.]+ V[\d.]+|H[\d.]+|M[\d.]+,[\d.]+))*$/);
  });
});
