/**
 * Maekawa passes the CS compliance suite on every coterie construction for n ∈ {1, 2, 3, 4, 5, 7}:
 * 40 seeds per delay model × 3 models = 120 seeded concurrent runs per configuration, plus the
 * suite's CSMIC, sequential, determinism, abort and close tests. The long suite
 * (`maekawa.compliance.long.test.ts`) runs 1,000 seeds per delay model.
 */
import { maekawaCompliance } from './compliance.js';

maekawaCompliance([1, 2, 3, 4, 5, 7], 40);
