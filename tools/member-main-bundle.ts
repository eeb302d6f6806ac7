/**
 * vitest global setup of the root run (`npm test`, `npm run test:long`): bundles the cluster
 * member main (`packages/cluster/src/member-main.ts` and the `@critsec/*` sources it imports)
 * into one ES module with esbuild, once per run, and names it in `CRITSEC_MEMBER_MAIN`
 * (`MEMBER_MAIN_ENV` of packages/cluster/src/launcher-entry.ts), which the test files' workers
 * and the processes they spawn inherit. Every `critsec` member a test launches with an algorithm
 * by name then loads that one file (~0.4 CPU-s) instead of compiling the sources through tsx
 * (~1.7 CPU-s). Members that import a module of the user's, and runs of a single package's
 * configuration (`cd packages/X && npx vitest run`), still run the sources through tsx, and
 * packages/cluster/test/launcher-local-run.test.ts runs `critsec` members that way on purpose.
 *
 * Third-party packages stay external: the bundle is written under the repository's
 * `node_modules/.cache/`, so Node resolves them from `node_modules` as it does for the sources.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Bare imports other than `@critsec/*` stay imports (resolved from node_modules at run time). */
const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@critsec/') ? undefined : { path: args.path, external: true },
    );
  },
};

export default async function setup(): Promise<() => void> {
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'critsec-member-main-'));
  const outfile = join(dir, 'member-main.mjs');
  await build({
    entryPoints: [join(ROOT, 'packages/cluster/src/member-main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@critsec/source'],
    plugins: [thirdPartyExternal],
    logLevel: 'warning',
  });
  process.env.CRITSEC_MEMBER_MAIN = outfile;
  return () => {
    delete process.env.CRITSEC_MEMBER_MAIN;
    rmSync(dir, { recursive: true, force: true });
  };
}
