// Mutation testing of the h-out-of-k algorithm (Fig. 1: the requester and the arbiter, its
// priority queue `Que`, the factory): `npm run test:mutation` (see tools/stryker.shared.mjs).
// Test set: vitest.mutation.config.ts (the fast suite without the exhaustive explorations). The
// seeded suites here fix their own seed counts (60 per delay model), so no `seeds` override.
import { mutationConfig } from '../../tools/stryker.shared.mjs';

export default mutationConfig('h-out-of-k', {
  mutate: ['src/h-out-of-k.ts', 'src/arbiter.ts', 'src/que.ts', 'src/factory.ts'],
  vitestConfig: 'vitest.mutation.config.ts',
});
