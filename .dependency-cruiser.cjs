// dependency-cruiser's rules for loopscope: `npm run lint`, run by .ci/run after the typecheck.
// CommonJS (.cjs) because the package is "type": "module" and depcruise loads its config with require().
// The layers (docs/ARCHITECTURE.md, "Layout"): machines ← sim ← real, web ← cli; api re-exports sim.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment:
        "An import cycle, type-only imports included: they are part of the code's structure. " +
        'Import a type from the module that defines it, not from an aggregate that re-exports it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'machines-are-pure',
      severity: 'error',
      comment: 'A machine is a pure XState definition: it never sees the simulator, real mode, the lab or the CLI.',
      from: { path: '^machines/' },
      to: { path: '^(sim|real|web|cli|api)/' },
    },
    {
      name: 'sim-below-real-web-cli',
      severity: 'error',
      comment: 'The simulator runs in the browser, the CLI and the tests: it imports neither real mode, the lab nor the CLI.',
      from: { path: '^sim/' },
      to: { path: '^(real|web|cli|api)/' },
    },
    {
      name: 'real-not-web-cli',
      severity: 'error',
      comment: 'Real mode is a library the CLI drives; it does not reach into the lab or the CLI.',
      from: { path: '^real/' },
      to: { path: '^(web|cli|api)/' },
    },
    {
      name: 'web-not-real-cli',
      severity: 'error',
      comment: 'The lab is bundled for the browser: real mode (undici, sockets) and the CLI (node) cannot be in it.',
      from: { path: '^web/' },
      to: { path: '^(real|cli|api)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve to a file or an installed package.',
      from: {},
      // virtual:… modules are made by a Vite plugin at build time (vite.config.ts).
      to: { couldNotResolve: true, pathNot: '^virtual:' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|^test/seventh-loop/files/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
