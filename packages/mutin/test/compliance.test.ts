/** MUTIN(l)'s compliance matrix (`compliance.ts`), fast: a twelfth of each configuration's weight (28 seeds per delay model for most; the long suite runs three times the weight). */
import { seedsPerDelay } from '@critsec/testing';
import { mutinCompliance } from './compliance.js';

mutinCompliance((base) => seedsPerDelay(Math.ceil(base / 12)));
