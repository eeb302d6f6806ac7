import { defineConfig } from 'vitest/config';

// Root entry point for running every package's tests in one vitest process (`npm run test:unit`);
// `npm test` runs them per package through nx, with caching.
export default defineConfig({
  test: { projects: ['packages/*'] },
});
