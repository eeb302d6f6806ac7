/**
 * Maekawa passes the CS compliance suite on every coterie construction for n ∈ {9, 13, 16, 25}:
 * 10 seeds per delay model × 3 models = 30 seeded concurrent runs per configuration in the fast
 * suite (the long suite, `maekawa.compliance.long.test.ts`, runs 1,000 per delay model).
 */
import { maekawaCompliance } from './compliance.js';

maekawaCompliance([9, 13, 16, 25], 10);
