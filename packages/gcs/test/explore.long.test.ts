import { describe, it } from 'vitest';
import { exploreGcs3 } from './explore-gcs3.js';

describe('exploration in controlled mode, long: (1,2)-GCS over majority(3)', () => {
  it('no violation and no deadlock within 5,000 distinct states', () => exploreGcs3(5_000));
});
