/** MUTIN(l)'s compliance matrix (`compliance.ts`), fast: a quarter of each configuration's weight (84 seeds per delay model for most). */
import { seedsPerDelay } from '@critsec/testing';
import { mutinCompliance } from './compliance.js';

mutinCompliance((base) => seedsPerDelay(Math.ceil(base / 4)));
