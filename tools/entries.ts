/**
 * The package's public entries: what `exports` in package.json names, what the build bundles into
 * dist/node/<out>.js and declares in dist/types/. test/package checks package.json against this list.
 */
export interface PublicEntry {
  /** The specifier users import: "loopscope", "loopscope/controller", … */
  specifier: string;
  /** The TypeScript source of the entry. */
  source: string;
  /** Bundle name in dist/node (without .js). */
  out: string;
}

export const PUBLIC_ENTRIES: readonly PublicEntry[] = [
  { specifier: 'loopscope', source: 'api/index.ts', out: 'index' },
  { specifier: 'loopscope/controller', source: 'sim/user-controller/api.ts', out: 'controller' },
  { specifier: 'loopscope/policy', source: 'sim/user-controller/policy-api.ts', out: 'policy' },
  { specifier: 'loopscope/testing', source: 'sim/check/replay-property.ts', out: 'testing' },
];

/** The command line (the package's bin). */
export const CLI_ENTRY = { source: 'cli/main.ts', out: 'loopscope' } as const;

/** The explorer's worker thread (sim/check/parallel.ts starts it next to the chunk that asks). */
export const WORKER_ENTRY = { source: 'sim/check/parallel-worker.ts', out: 'check-worker' } as const;
