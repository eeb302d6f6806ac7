import { packageTest } from '../../tools/vitest.shared.js';

// the seeded suites run for tens of seconds; the nightly script raises the seeds and this limit
export default packageTest('mutex', { testTimeout: Number(process.env.MUTEX_TEST_TIMEOUT ?? 300_000) });
