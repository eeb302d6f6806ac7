/**
 * The mutation test set of `npm run test:mutation` (stryker.config.mjs): the fast suite without
 * `test/explore.test.ts`. That exploration is budgeted by states (2,000 states; was 5,000, ~30 s on a loaded
 * machine), so a mutant that only slows the protocol turns into a timeout rather than a verdict,
 * and every mutant it covers would pay 30 s; the exhaustive DPOR explorations of the smallest
 * instances (`explore-dpor.test.ts`, a few seconds) and the seeded suites stay.
 */
import { defineProject, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(base, defineProject({ test: { exclude: ['test/explore.test.ts'] } }));
