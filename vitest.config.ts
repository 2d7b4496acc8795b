import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One command runs every suite: unit, property, explorer, browser (Chromium) and real Incus.
// The real-Incus files share one daemon (one of them restarts it): they run one at a time.
export default defineConfig({
  test: {
    // Vitest's default (cores − 1) runs one file at a time on a 2-core machine; the real-Incus and
    // browser files spend much of their time waiting on incusd and chromium, so two workers overlap
    // that waiting with other files (measured here: 871 s instead of 1024 s for the whole suite).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    setupFiles: ['test/fast-check-replay.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'sim', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: ['test/real/**', 'test/browser/**'] },
      },
      // A browser test opens pages one after another and waits on conditions, never on sleeps: its time
      // is the machine's, and on a loaded 2-core machine a dozen page loads pass 30 s (seen: 30–34 s).
      // The lab is built once for all of them (test/browser/build-lab.ts) and served as `loopscope lab` serves it.
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], globalSetup: ['test/browser/build-lab.ts'], testTimeout: 120_000 },
      },
      { extends: true, test: { name: 'real', include: ['test/real/**/*.test.ts'], fileParallelism: false } },
    ],
  },
});
