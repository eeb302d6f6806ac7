import { packageTest } from '../../tools/vitest.shared.js';

export default packageTest('h-out-of-k');
