/**
 * The kMutex compliance matrix, long: three times each configuration's weight (1,002 seeds per
 * delay model for most) — a file of its own so that it runs beside the GCS matrix.
 */
import { seedsPerDelay } from '@critsec/testing';
import { kMutexCompliance } from './kmutex-compliance.js';

kMutexCompliance((base) => seedsPerDelay(base * 3));
