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
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** A test file that replaces a module (`vi.mock`) changes what every later file in its worker imports. */
const MOCKS_MODULES = /\bvi\.(mock|doMock)\(/;

/**
 * Whether the package's test files share one module graph per worker (`isolate: false`), or
 * each file gets a fresh one. Sharing saves the re-import of every `@critsec/*` source a file
 * uses (about 0.8 CPU-s per file; ~200 CPU-s over `npm test`'s 250 files), which is safe for
 * tests that only build objects and run them. A package whose tests replace modules must be
 * isolated: `packageTest(name, { isolate: true })`; this check refuses the configuration otherwise
 * (so a `vi.mock` added later cannot leak into its neighbours unnoticed).
 */
function checkIsolation(name: string, isolate: boolean): void {
  if (isolate) return;
  const dir = fileURLToPath(new URL(`../packages/${name}/test`, import.meta.url));
  let files: string[];
  try {
    files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  } catch {
    return; // no test directory
  }
  const mocking = files.filter((f) => MOCKS_MODULES.test(readFileSync(join(dir, f), 'utf8')));
  if (mocking.length > 0) {
    throw new Error(
      `packages/${name}: ${mocking.join(', ')} replace modules with vi.mock, so its files cannot share a ` +
        `module graph: use packageTest('${name}', { isolate: true }) in its vitest.config.ts`,
    );
  }
}

/** Options of {@link packageTest}. */
export interface PackageTestOptions {
  /** Give every test file a fresh module graph (required when a file uses `vi.mock`). Default false. */
  readonly isolate?: boolean;
}

/** The settings every test project shares (a package's, or the root's merged project). */
function testSettings(name: string, isolate: boolean, root: string) {
  return {
    resolve: { conditions: [sourceCondition, 'import', 'module', 'default'] },
    ssr: { resolve: { conditions: [sourceCondition, 'import', 'module', 'default'] } },
    test: {
      name,
      include: longSuite ? [`${root}test/**/*.long.test.ts`] : [`${root}test/**/*.test.ts`],
      exclude: longSuite ? ['**/node_modules/**'] : ['**/node_modules/**', `${root}test/**/*.long.test.ts`],
      environment: 'node' as const,
      testTimeout: HANG_GUARD_MS,
      hookTimeout: HANG_GUARD_MS,
      pool: 'threads' as const,
      isolate,
      // files share their worker's globals when not isolated: undo what a file stubbed
      unstubEnvs: true,
      unstubGlobals: true,
    },
  };
}

/** One package's test project (its `vitest.config.ts`): `npx vitest run` in the package, Stryker. */
export function packageTest(name: string, options: PackageTestOptions = {}) {
  const isolate = options.isolate ?? false;
  checkIsolation(name, isolate);
  return defineProject(testSettings(name, isolate, ''));
}

/** Whether a package's `vitest.config.ts` asks for isolation (`packageTest(name, { isolate: true })`). */
function isolatedPackage(dir: string): boolean {
  return /isolate:\s*true/.test(readFileSync(join(dir, 'vitest.config.ts'), 'utf8'));
}

/**
 * The root run's projects (root `vitest.config.ts`: `npm test`, `npm run test:long`): every package
 * whose tests share a module graph merged into **one** project, `packages`, and each isolated
 * package (`packageTest(name, { isolate: true })`) as its own project, from its own config. One
 * project means one vite server: every source is transformed once per run, not once per package
 * that imports it, and a worker imports a shared source (`@critsec/core`, the harness, the
 * simulator …) once for every package's files instead of once per package. The same settings as
 * each package's own project (`testSettings`); only the project name in the output differs.
 */
export function workspaceProjects() {
  const packagesDir = fileURLToPath(new URL('../packages/', import.meta.url));
  const names = readdirSync(packagesDir).filter((n) => existsSync(join(packagesDir, n, 'vitest.config.ts')));
  const isolated = names.filter((n) => isolatedPackage(join(packagesDir, n)));
  const shared = names.filter((n) => !isolated.includes(n));
  for (const n of shared) checkIsolation(n, false);
  return [
    {
      extends: false,
      ...testSettings(
        'packages',
        false,
        `packages/${shared.length === 1 ? shared[0] : `{${shared.join(',')}}`}/`,
      ),
    },
    ...isolated.map((n) => `packages/${n}`),
  ];
}
