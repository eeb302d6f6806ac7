/**
 * Shared vitest settings. Tests read sibling packages' *source* through the custom export
 * condition `@critsec/source` (see each package.json `exports`), so nothing needs building
 * before a test run.
 *
 * Two suites per package, by file name:
 * - `test/**\/*.test.ts` — the contributor's loop, `npm test` (the whole repository within five
 *   minutes on a quiet 2-core machine);
 * - `test/**\/*.long.test.ts` — the ≥ 10⁴-seed runs and long explorations, `npm run test:long`
 *   (sets `CRITSEC_LONG=1`; CI runs it after `npm test`).
 */
import { defineProject } from 'vitest/config';

const sourceCondition = '@critsec/source';

/** True when the long suite runs (`npm run test:long`). */
const longSuite = process.env.CRITSEC_LONG === '1';

/**
 * No test has a wall-clock deadline: explorations are bounded by states, seeded runs by seeds
 * and rounds, tests over real networks and processes by progress (`noProgressMs()` of
 * `@critsec/testing`: they fail after two minutes without any progress). vitest's per-test and
 * per-hook timeout is only a guard against a hang: 30 minutes (the slowest short test takes
 * ~20 s alone on a quiet 2-core machine, so it tolerates a slowdown of ~90×), an hour in the long
 * suite.
 */
const HANG_GUARD_MS = longSuite ? 3_600_000 : 1_800_000;

export function packageTest(name: string) {
  return defineProject({
    resolve: { conditions: [sourceCondition, 'import', 'module', 'default'] },
    ssr: { resolve: { conditions: [sourceCondition, 'import', 'module', 'default'] } },
    test: {
      name,
      include: longSuite ? ['test/**/*.long.test.ts'] : ['test/**/*.test.ts'],
      exclude: longSuite ? ['**/node_modules/**'] : ['**/node_modules/**', 'test/**/*.long.test.ts'],
      environment: 'node',
      testTimeout: HANG_GUARD_MS,
      hookTimeout: HANG_GUARD_MS,
      pool: 'threads',
    },
  });
}
