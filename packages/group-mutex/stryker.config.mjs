// Mutation testing of Maekawa_M and Maekawa_S (Joung 2003, Figs. 5–8: the requester and node
// halves of each, the priorities, the subgroup plan, the factory): `npm run test:mutation` (see
// tools/stryker.shared.mjs). Test set: the whole fast suite (about 20 s; its seeded suites fix
// their own seed counts, so no `seeds` override).
import { mutationConfig } from '../../tools/stryker.shared.mjs';

export default mutationConfig('group-mutex', {
  mutate: [
    'src/maekawa-m.ts',
    'src/maekawa-m-node.ts',
    'src/maekawa-s.ts',
    'src/maekawa-s-node.ts',
    'src/priority.ts',
    'src/plan.ts',
    'src/group-mutex.ts',
  ],
});
