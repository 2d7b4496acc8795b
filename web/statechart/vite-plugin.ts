import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';

export const LAYOUTS_MODULE = 'virtual:loopscope-statecharts';
const RESOLVED = `\0${LAYOUTS_MODULE}`;

/**
 * ELK is GWT-compiled Java, ~480 KB gzipped: more than the rest of the lab together. The machines
 * are code known at build time, so their layouts are computed here (build-layouts.ts) and the page
 * ships JSON; the graph itself is still read from the machine in the page (graph.ts).
 * The loops are loaded with tsx when the module is first asked for, not bundled into the config;
 * a dev server keeps the layouts it computed, so after adding states to a machine restart it
 * (the statechart panel says so when a state has no position).
 */
export function statechartLayouts(): Plugin {
  let root = process.cwd();
  return {
    name: 'loopscope-statechart-layouts',
    configResolved(config) {
      root = config.root;
    },
    resolveId: (id) => (id === LAYOUTS_MODULE ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      const file = join(root, 'statechart/build-layouts.ts');
      const { computeLayouts } = (await tsImport(file, import.meta.url)) as typeof import('./build-layouts'); // cast: tsImport loads that very module
      return `export default ${JSON.stringify(await computeLayouts())};`;
    },
  };
}
