/**
 * The nightly-style run of the @critsec/mutex tests: the same test files with every seed count
 * multiplied by MUTEX_NIGHTLY_FACTOR (default 10) and a larger exploration budget for n = 4.
 *
 *   npm run test:nightly -w @critsec/mutex                            # ×10
 *   MUTEX_NIGHTLY_FACTOR=100 npm run test:nightly -w @critsec/mutex   # ×100
 *
 * Individual knobs (each overrides the factor): MUTEX_SEEDS_PER_DELAY (compliance, default 334 per
 * delay model), MUTEX_HUNT_SEEDS (deadlock hunt, default 10,000 per configuration),
 * MUTEX_ABORT_RUNS (default 1,000), MUTEX_EXPLORE_N4_SCHEDULES (default 8; 12 here ≈ 150,000
 * states). Extra arguments go to vitest (e.g. a file filter).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const factor = Number(process.env.MUTEX_NIGHTLY_FACTOR ?? 10);
if (!(Number.isFinite(factor) && factor >= 1)) {
  console.error(`MUTEX_NIGHTLY_FACTOR must be a number ≥ 1, got ${process.env.MUTEX_NIGHTLY_FACTOR}`);
  process.exit(2);
}
const env: NodeJS.ProcessEnv = {
  ...process.env,
  MUTEX_SEEDS_PER_DELAY: process.env.MUTEX_SEEDS_PER_DELAY ?? String(Math.round(334 * factor)),
  MUTEX_HUNT_SEEDS: process.env.MUTEX_HUNT_SEEDS ?? String(Math.round(10_000 * factor)),
  MUTEX_ABORT_RUNS: process.env.MUTEX_ABORT_RUNS ?? String(Math.round(1_000 * factor)),
  MUTEX_EXPLORE_N4_SCHEDULES: process.env.MUTEX_EXPLORE_N4_SCHEDULES ?? '12',
  MUTEX_TEST_TIMEOUT: process.env.MUTEX_TEST_TIMEOUT ?? String(24 * 3_600_000),
};
const cwd = join(dirname(fileURLToPath(import.meta.url)), '..');
console.error(
  `nightly: compliance ${env.MUTEX_SEEDS_PER_DELAY} seeds per delay model, hunt ${env.MUTEX_HUNT_SEEDS} seeds per configuration, ${env.MUTEX_ABORT_RUNS} abort runs, n = 4 exploration capped at ${env.MUTEX_EXPLORE_N4_SCHEDULES} schedules`,
);
const r = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  cwd,
  env,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
