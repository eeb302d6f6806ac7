import { packageTest } from '../../tools/vitest.shared.js';

// the seeded suites run for tens of seconds (the long suite sets its own limit)
export default packageTest('mutex', { testTimeout: 300_000 });
