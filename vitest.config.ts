import { defineConfig } from 'vitest/config';

// One command runs every suite: unit, property, explorer, browser (Chromium) and real Incus.
// The real-Incus files share one daemon (one of them restarts it): they run one at a time.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'sim', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: ['test/real/**', 'test/browser/**'] } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
      { extends: true, test: { name: 'real', include: ['test/real/**/*.test.ts'], fileParallelism: false } },
    ],
  },
});
