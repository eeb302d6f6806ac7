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

export function packageTest(name: string, extra: { testTimeout?: number } = {}) {
  return defineProject({
    resolve: { conditions: [sourceCondition, 'import', 'module', 'default'] },
    ssr: { resolve: { conditions: [sourceCondition, 'import', 'module', 'default'] } },
    test: {
      name,
      include: longSuite ? ['test/**/*.long.test.ts'] : ['test/**/*.test.ts'],
      exclude: longSuite ? ['**/node_modules/**'] : ['**/node_modules/**', 'test/**/*.long.test.ts'],
      environment: 'node',
      testTimeout: longSuite ? 3_600_000 : (extra.testTimeout ?? 60_000),
      hookTimeout: 60_000,
      pool: 'threads',
    },
  });
}
