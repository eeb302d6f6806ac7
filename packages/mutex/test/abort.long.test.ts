/**
 * Aborting a waiting entry at random points (DESIGN.md 3.1), full budget: 1,000 seeded Maekawa runs
 * over eight coteries and the three delay models, and 300 Ricart–Agrawala runs (`abort.test.ts`
 * runs the same suites at 250 and 100).
 */
import { abortSuites } from './abort-suites.js';

abortSuites(1000, 300);
