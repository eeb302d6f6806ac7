import { defineConfig } from 'vitest/config';

// Root entry point for running every package's tests in one vitest process: `npm run test:unit`
// (the short suites) and `npm run test:long` (CRITSEC_LONG=1: only the `*.long.test.ts` suites,
// see tools/vitest.shared.ts). `npm test` runs the short suites per package through nx, cached.
export default defineConfig({
  test: { projects: ['packages/*'], passWithNoTests: process.env.CRITSEC_LONG === '1' },
});
