/**
 * The long compliance run (`npm run test:long`): Maekawa on every coterie construction for
 * n ∈ {1, …, 25} and Ricart–Agrawala for every n, each with 1,000 seeds per delay model (3,000
 * seeded concurrent runs per configuration). `CRITSEC_SEEDS` sets another count per delay model.
 */
import { seedsPerDelay } from '@critsec/testing';
import { maekawaCompliance, ricartAgrawalaCompliance } from './compliance.js';
import { SIZES } from './helpers.js';

const SEEDS = seedsPerDelay(1_000);

maekawaCompliance(SIZES, SEEDS, 3_600_000);
ricartAgrawalaCompliance(SEEDS, 3_600_000);
