/**
 * What the package build (tools/build.ts) bakes into the compiled bundle through esbuild's `define`;
 * undefined when loopscope runs from its TypeScript sources (a clone, the tests). Code that reads its
 * own files next to itself (the sandbox's API source, the explorer's worker entry) asks this first,
 * because in the bundle those files are not there.
 */
export interface CompiledFacts {
  /** The APIs a user module may import inside the sandbox, already transpiled to CommonJS. */
  sandboxApis: { controller: string; policy: string };
}

declare const LOOPSCOPE_COMPILED: CompiledFacts | undefined;

export const COMPILED: CompiledFacts | undefined = typeof LOOPSCOPE_COMPILED === 'undefined' ? undefined : LOOPSCOPE_COMPILED;
