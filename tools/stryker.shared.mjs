/**
 * Shared StrykerJS settings for `npm run test:mutation` (mutation testing of the protocol cores).
 * Each mutated package has a `stryker.config.mjs` calling {@link mutationConfig}; the root script
 * runs them one after the other, always from the repository root:
 *
 *   npx stryker run packages/<name>/stryker.config.mjs
 *
 * Why from the root: Stryker copies the project into a sandbox (`.stryker-tmp/sandbox-*`) and mutates
 * the copy, never the working tree others are editing. The package vitest configs import
 * `../../tools/vitest.shared.js`, so the sandbox must mirror the repository layout; `ignorePatterns`
 * keeps the copy down to the root configs, `tools/` and the one package under test. Sibling packages
 * are read unmutated through `node_modules/@critsec/*` (symlinks to the real `packages/*`), with the
 * `@critsec/source` condition of the package's own vitest config. So **while a run is going, nobody
 * may edit (or apply a mutant by hand to) the source of a package the mutated one depends on**: a
 * sibling that fails to load makes the test files fail to collect, and the vitest runner counts a
 * mutant with no failing test as *survived*. Measured on 2026-11-24: `gcs` scored 47.54 % (123
 * survived) while mutants were applied by hand to `mutex/src` beside it, 79.92 % (44 survived) alone.
 *
 * Cost (2 shared cores): per-test coverage (`perTest`) runs only the tests that reach a mutant,
 * concurrency 2 (one vitest worker each), and incremental mode — the result of the last run is kept
 * in `reports/mutation/<name>.incremental.json` (gitignored, a local cache: the source moves under
 * several engineers at once, so a committed file would churn and conflict; a rerun after a change only
 * re-tests the mutants in changed code or covered by changed tests). `--force` re-tests everything.
 *
 * Seeds: a package may lower the seeded suites' seeds per delay model for its mutation runs
 * (`seeds`, exported as `CRITSEC_SEEDS` to the test processes unless already set). A mutant that
 * breaks safety or liveness shows within a few seeds; the thousands belong to `npm test` and the
 * long suite. Surviving mutants are re-checked with the full fast suite before being called
 * equivalent (README of each package).
 */

/**
 * @param {string} name the package directory under `packages/`
 * @param {{ mutate: string[], vitestConfig?: string, seeds?: number, timeoutMS?: number }} options
 *   `mutate`: files relative to the package; `vitestConfig`: the vitest config (relative to the
 *   package) that selects the mutation test set, the package's own `vitest.config.ts` by default;
 *   `seeds`: `CRITSEC_SEEDS` for the run (the suites' own counts by default).
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function mutationConfig(name, { mutate, vitestConfig = 'vitest.config.ts', seeds, timeoutMS = 10_000 }) {
  const dir = `packages/${name}`;
  if (seeds !== undefined) process.env.CRITSEC_SEEDS ??= String(seeds);
  return {
    packageManager: 'npm',
    testRunner: 'vitest',
    plugins: ['@stryker-mutator/vitest-runner'],
    vitest: { configFile: `${dir}/${vitestConfig}`, dir, related: false },
    coverageAnalysis: 'perTest',
    mutate: mutate.map((file) => `${dir}/${file}`),
    ignorePatterns: [
      '/*',
      '!/package.json',
      '!/tsconfig.base.json',
      '!/tools',
      '/packages/*',
      `!/packages/${name}`,
      `/packages/${name}/node_modules`,
      `/packages/${name}/dist`,
    ],
    tempDirName: '.stryker-tmp',
    cleanTempDir: true,
    concurrency: 2,
    timeoutMS,
    timeoutFactor: 1.5,
    incremental: true,
    incrementalFile: `reports/mutation/${name}.incremental.json`,
    reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    thresholds: { high: 90, low: 75, break: null },
  };
}
