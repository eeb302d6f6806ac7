/**
 * Seed budget of the compliance matrix. `csCompliance` runs `seeds` seeds per delay model
 * (unit, uniform(0.1, 2), exponential(1)): the default gives each configuration ≥ 1,000 seeds
 * in total. `CRITSEC_SEEDS=<per delay model>` overrides every count.
 */
const fromEnv = Number(process.env.CRITSEC_SEEDS ?? '');

/** Seeds per delay model: `base` (default 334, i.e. 1,002 per configuration) unless overridden. */
export function seedsPerDelay(base = 334): number {
  return Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : base;
}

/** Rounds per process in each seeded run (`CRITSEC_ROUNDS` overrides). */
export function rounds(base = 2): number {
  const r = Number(process.env.CRITSEC_ROUNDS ?? '');
  return Number.isSafeInteger(r) && r > 0 ? r : base;
}
