/**
 * Test budgets that a run can raise from the environment, shared by every package's seeded
 * suites: `CRITSEC_SEEDS=<seeds per delay model>` and `CRITSEC_ROUNDS=<rounds per process>`
 * override what a test file asks for (e.g. to chase a rare schedule overnight). Which files run
 * is the suite's business: `test/*.test.ts` in `npm test`, `test/*.long.test.ts` in
 * `npm run test:long`.
 */
function fromEnv(name: string): number | undefined {
  const x = Number(process.env[name] ?? '');
  return Number.isSafeInteger(x) && x > 0 ? x : undefined;
}

/** Seeds per delay model for a `csCompliance` run: `base`, unless `CRITSEC_SEEDS` overrides it. */
export function seedsPerDelay(base: number): number {
  return fromEnv('CRITSEC_SEEDS') ?? base;
}

/** Rounds per process in each seeded run: `base` (default 2), unless `CRITSEC_ROUNDS` overrides it. */
export function roundsPerProcess(base = 2): number {
  return fromEnv('CRITSEC_ROUNDS') ?? base;
}
