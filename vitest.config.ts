import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Root entry point for running every package's tests in one vitest process: `npm run test:unit`
// (the short suites) and `npm run test:long` (CRITSEC_LONG=1: only the `*.long.test.ts` suites,
// see tools/vitest.shared.ts). `npm test` runs the short suites per package through nx, cached.
//
// One test file per core: vitest's default is one worker fewer than the cores (a single worker
// on the 2-core CI machine, which left a core idle through the CPU-bound long suites). No test
// has a wall-clock deadline, so files sharing the machine only run slower, never fail.
export default defineConfig({
  test: {
    projects: ['packages/*'],
    passWithNoTests: process.env.CRITSEC_LONG === '1',
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
