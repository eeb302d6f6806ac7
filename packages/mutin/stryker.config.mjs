// Mutation testing of MUTIN(l): `npm run test:mutation` (see tools/stryker.shared.mjs).
// Test set: the whole fast suite, with 12 seeds per delay model in the seeded suites (compliance
// matrix, initial configurations) instead of 84/100 — the full counts made a run cost over an
// hour on the shared 2 cores; with per-test coverage and bail on the first failure a killed
// mutant then costs a few of its tests, and the survivors are re-checked with the full suite.
import { mutationConfig } from '../../tools/stryker.shared.mjs';

export default mutationConfig('mutin', {
  mutate: ['src/mutin.ts', 'src/factory.ts', 'src/protocol.ts'],
  seeds: 12,
});
