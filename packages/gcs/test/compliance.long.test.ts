/** The (l,k)-GCS and kMutex compliance matrices, long: three times each configuration's weight (1,002 seeds per delay model for most). */
import { seedsPerDelay } from '@critsec/testing';
import { gcsCompliance } from './gcs-compliance.js';
import { kMutexCompliance } from './kmutex-compliance.js';

gcsCompliance((base) => seedsPerDelay(base * 3));
kMutexCompliance((base) => seedsPerDelay(base * 3));
