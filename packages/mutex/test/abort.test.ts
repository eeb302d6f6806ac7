/**
 * Aborting a waiting entry at random points (DESIGN.md 3.1), fast: 250 seeded Maekawa runs over
 * eight coteries and the three delay models, and 100 Ricart–Agrawala runs — safe, live, every
 * arbiter and requester clean afterwards, and the withdrawal paths taken (each still ×100 or more
 * at this budget). `abort.long.test.ts` runs the same suites at 1,000 and 300 runs.
 */
import { abortSuites } from './abort-suites.js';

abortSuites(250, 100);
