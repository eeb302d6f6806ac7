// Mutation testing of Maekawa, its request queue and Ricart–Agrawala: `npm run test:mutation`
// (see tools/stryker.shared.mjs). Test set: vitest.mutation.config.ts (the fast suite without the
// exhaustive explorations).
import { mutationConfig } from '../../tools/stryker.shared.mjs';

export default mutationConfig('mutex', {
  mutate: ['src/maekawa*.ts', 'src/request-queue.ts', 'src/ricart-agrawala.ts'],
  vitestConfig: 'vitest.mutation.config.ts',
});
