/**
 * The mutation test set of `npm run test:mutation` (stryker.config.mjs): the fast suite without
 * `test/explore.test.ts`. Its two-arbiter exploration (20,000 states) alone costs about a minute
 * on the shared 2 cores, and every mutant of the arbiter covers it, so each surviving mutant would
 * pay it again; the seeded compliance matrix, the scripted crossings, the mutant and bound checks
 * decide the same mutants at a fraction of the cost. The explorations stay in `npm test`.
 */
import { defineProject, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(base, defineProject({ test: { exclude: ['test/explore.test.ts'] } }));
