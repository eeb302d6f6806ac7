import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { workspaceProjects } from './tools/vitest.shared.js';

// Root entry point for running every package's tests in one vitest process: `npm test` (after
// its static checks) and `npm run test:unit` run the short suites, `npm run test:long`
// (CRITSEC_LONG=1) only the `*.long.test.ts` suites, see tools/vitest.shared.ts. One process over
// every package, not one per package: one pool keeps both cores busy to the end, and nothing
// starts twice. The packages whose files share a module graph are one project (one vite server:
// each source transformed and imported once per worker, not once per package), each isolated
// package its own (`workspaceProjects`).
//
// One test file per core: vitest's default is one worker fewer than the cores (a single worker
// on the 2-core CI machine, which left a core idle through the CPU-bound long suites). No test
// has a wall-clock deadline, so files sharing the machine only run slower, never fail.
//
// The global setup bundles the cluster member main once for the run, so the `critsec` members the
// tests spawn as OS processes load one file instead of compiling the sources through tsx each
// (tools/member-main-bundle.ts).
export default defineConfig({
  test: {
    projects: workspaceProjects(),
    globalSetup: ['tools/member-main-bundle.ts'],
    passWithNoTests: process.env.CRITSEC_LONG === '1',
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
