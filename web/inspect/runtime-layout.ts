// Layouts computed in the page: an inspected app's machines are not known at build time, so ELK runs
// here (elkjs's bundled build runs in the browser). It is loaded on first use only, in a chunk of its
// own: the loops' pages keep their build-time layouts and never download it.
import type { ELK } from 'elkjs/lib/elk-api.js';
import type { ChartGraph } from '../statechart/graph';
import type { Layout } from '../statechart/layout';
import { layoutGraph } from '../statechart/layout';

let elk: Promise<ELK> | null = null;
/** One layout per definition: an app re-registers the same machine for each actor of it. */
const cache = new Map<string, Promise<Layout>>();
const MAX_CACHED = 100;

/** Starts loading ELK (the inspector page does as it opens, while the relay's history comes in). */
export function loadElk(): Promise<ELK> {
  elk ??= import('elkjs/lib/elk.bundled.js').then((m) => new m.default());
  return elk;
}

export function runtimeLayout(key: string, graph: ChartGraph): Promise<Layout> {
  const cached = cache.get(key);
  if (cached) return cached;
  const laid = loadElk().then((e) => layoutGraph(e, graph));
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? '');
  cache.set(key, laid);
  // A failed layout is not kept: the next attempt tries again.
  laid.catch(() => cache.delete(key));
  return laid;
}
