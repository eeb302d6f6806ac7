/**
 * The long compliance run of Maekawa (`npm run test:long`): every coterie construction for
 * n ∈ {1, …, 25}, 1,000 seeds per delay model (3,000 seeded concurrent runs per configuration).
 * `CRITSEC_SEEDS` sets another count per delay model.
 */
import { seedsPerDelay } from '@critsec/testing';
import { maekawaCompliance } from './compliance.js';
import { SIZES } from './helpers.js';

maekawaCompliance(SIZES, seedsPerDelay(1_000));
