/**
 * Shared vitest settings. Tests read sibling packages' *source* through the custom export
 * condition `@critsec/source` (see each package.json `exports`), so nothing needs building
 * before a test run.
 */
import { defineProject } from 'vitest/config';

export const sourceCondition = '@critsec/source';

export function packageTest(name: string, extra: { testTimeout?: number } = {}) {
  return defineProject({
    resolve: { conditions: [sourceCondition, 'import', 'module', 'default'] },
    ssr: { resolve: { conditions: [sourceCondition, 'import', 'module', 'default'] } },
    test: {
      name,
      include: ['test/**/*.test.ts'],
      environment: 'node',
      testTimeout: extra.testTimeout ?? 60_000,
      hookTimeout: 60_000,
      pool: 'threads',
    },
  });
}
