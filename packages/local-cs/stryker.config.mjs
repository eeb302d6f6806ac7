// Mutation testing of li-LMUTIN, ki-LMUTEX and LKCS (Kamei & Kakugawa 2017, Algorithms 1–7: the
// requester halves, the shared arbiter, LKCS's leader plan): `npm run test:mutation` (see
// tools/stryker.shared.mjs). Test set: the whole fast suite (its seeded suites fix their own seed
// counts, so no `seeds` override).
import { mutationConfig } from '../../tools/stryker.shared.mjs';

export default mutationConfig('local-cs', {
  mutate: ['src/lmutin.ts', 'src/lmutex.ts', 'src/arbiter.ts', 'src/lkcs.ts', 'src/lkcs-plan.ts'],
});
