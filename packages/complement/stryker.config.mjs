// Mutation testing of the Co-A transform: `npm run test:mutation` (see tools/stryker.shared.mjs).
// The whole fast suite (~3 s) is the mutation test set.
import { mutationConfig } from '../../tools/stryker.shared.mjs';

export default mutationConfig('complement', { mutate: ['src/complement.ts'] });
