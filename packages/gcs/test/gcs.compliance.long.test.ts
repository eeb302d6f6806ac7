/** The (l,k)-GCS compliance matrix, long: three times each configuration's weight (1,002 seeds per delay model for most). */
import { seedsPerDelay } from '@critsec/testing';
import { gcsCompliance } from './gcs-compliance.js';

gcsCompliance((base) => seedsPerDelay(base * 3));
