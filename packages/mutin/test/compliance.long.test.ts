/** MUTIN(l)'s compliance matrix (`compliance.ts`), long: three times each configuration's weight (1,002 seeds per delay model for most). */
import { seedsPerDelay } from '@critsec/testing';
import { mutinCompliance } from './compliance.js';

mutinCompliance((base) => seedsPerDelay(base * 3));
