/**
 * The mutation test set of `npm run test:mutation` (stryker.config.mjs): the fast suite without
 * `test/explore.test.ts`. That exhaustive exploration of n = 3 and 4 costs over a minute on a
 * loaded 2-core machine, and every Maekawa mutant covers it; the seeded compliance matrices, the
 * 1,000-seed deadlock hunt, the abort runs and the scripted Maekawa scenarios (a few seconds each)
 * decide the same mutants at a fraction of the cost. The explorations stay in `npm test`.
 */
import { defineProject, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(base, defineProject({ test: { exclude: ['test/explore.test.ts'] } }));
