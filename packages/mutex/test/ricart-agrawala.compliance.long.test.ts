/**
 * The long compliance run of Ricart–Agrawala (`npm run test:long`): every n of `SIZES`, 1,000
 * seeds per delay model. `CRITSEC_SEEDS` sets another count per delay model.
 */
import { seedsPerDelay } from '@critsec/testing';
import { ricartAgrawalaCompliance } from './compliance.js';

ricartAgrawalaCompliance(seedsPerDelay(1_000));
