import { packageTest } from '../../tools/vitest.shared.js';

export default packageTest('local-cs', { testTimeout: 120_000 });
