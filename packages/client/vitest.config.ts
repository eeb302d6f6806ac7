import { packageTest } from '../../tools/vitest.shared.js';

export default packageTest('client');
