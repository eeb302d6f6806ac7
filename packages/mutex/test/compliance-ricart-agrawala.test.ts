/**
 * Ricart–Agrawala passes the CS compliance suite for n ∈ {1, 2, 3, 4, 5, 7, 9, 13, 16, 25}: 50
 * seeds per delay model × 3 models = 150 seeded concurrent runs per n in the fast suite (the long
 * suite, `ricart-agrawala.compliance.long.test.ts`, runs 1,000 per delay model).
 */
import { ricartAgrawalaCompliance } from './compliance.js';

ricartAgrawalaCompliance(50);
