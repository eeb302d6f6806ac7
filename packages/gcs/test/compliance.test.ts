/** The (l,k)-GCS and kMutex compliance matrices, fast: a tenth of each configuration's weight (34 seeds per delay model for most). */
import { seedsPerDelay } from '@critsec/testing';
import { gcsCompliance } from './gcs-compliance.js';
import { kMutexCompliance } from './kmutex-compliance.js';

gcsCompliance((base) => seedsPerDelay(Math.ceil(base / 10)));
kMutexCompliance((base) => seedsPerDelay(Math.ceil(base / 10)));
