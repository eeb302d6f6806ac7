/** The deadlock hunt of `hunt.ts` with 10,000 seeds per configuration (`npm run test:long`). */
import { deadlockHunt } from './hunt.js';

deadlockHunt(10_000);
