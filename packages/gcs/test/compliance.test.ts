/** The (l,k)-GCS and kMutex compliance matrices, fast: a thirtieth of each configuration's weight (12 seeds per delay model for most, a tenth — 34 — where a rare-path coverage check needs them; the long suite runs the full weight). */
import { seedsPerDelay } from '@critsec/testing';
import { gcsCompliance } from './gcs-compliance.js';
import { kMutexCompliance } from './kmutex-compliance.js';

// a configuration with a rare-path coverage check keeps a tenth (it needs the seeds to take every path)
const fast = (base: number, coverage: boolean) => seedsPerDelay(Math.ceil(base / (coverage ? 10 : 30)));
gcsCompliance(fast);
kMutexCompliance(fast);
