import { defineConfig } from 'vitest/config';

// One command runs every suite: unit, property, explorer, browser (Chromium) and real Incus.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Real-Incus and browser suites share one daemon / one port range: keep files from racing.
    fileParallelism: true,
    reporters: ['default'],
  },
});
