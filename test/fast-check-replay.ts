import fc from 'fast-check';

// A failing property prints `{ seed, path }`; FC_SEED (and FC_PATH) run that very case again:
//   FC_SEED=260717816 FC_PATH=4:0:0 npx vitest run test/systemd-restart/properties.test.ts
// Without them every run draws a fresh seed, so the generators keep exploring.
const seed = process.env.FC_SEED;
if (seed !== undefined && seed !== '') {
  const path = process.env.FC_PATH;
  fc.configureGlobal({ seed: Number(seed), ...(path ? { path, endOnFailure: true } : {}) });
}
