import { describe, it } from 'vitest';
import { exploreGcs3 } from './explore-gcs3.js';

// The exhaustive n = 2 instances are in explore-dpor.test.ts; 5,000 states in explore.long.test.ts.
describe('exploration in controlled mode: (1,2)-GCS over majority(3)', () => {
  it('no violation and no deadlock within 1,000 distinct states', () => exploreGcs3(1_000));
});
