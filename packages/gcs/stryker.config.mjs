// Mutation testing of the (l,k)-GCS composition: `npm run test:mutation` (see
// tools/stryker.shared.mjs). Test set: vitest.mutation.config.ts (the fast suite without the
// state-budgeted exploration), 40 seeds per delay model in the seeded compliance matrices (instead of 84;
// fewer than ~40 and the "every rare path was taken" checks of the matrix miss Response2 paths).
import { mutationConfig } from '../../tools/stryker.shared.mjs';

export default mutationConfig('gcs', {
  mutate: ['src/compose.ts', 'src/gcs.ts'],
  vitestConfig: 'vitest.mutation.config.ts',
  seeds: 40,
});
