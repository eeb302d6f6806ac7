/**
 * nx plugin (nx.json `plugins`): infers every package's standard targets from the files it has,
 * so no package.json repeats them. What each target runs, reads and caches is written once, in
 * nx.json `targetDefaults`; a package.json keeps only its own scripts (example, bench, test:long …).
 *
 * | target          | a package gets it when it has                     |
 * |-----------------|---------------------------------------------------|
 * | `lint`          | (every package)                                   |
 * | `test`          | `vitest.config.ts`                                |
 * | `build`         | `tsup.config.ts`                                  |
 * | `check-package` | `tsup.config.ts` and is published (not `private`) |
 *
 * `check-package` runs tools/check-package.mjs (the packed tarball: publint --strict, attw under its
 * default profile, LICENSE and repository/homepage/bugs/keywords, every exports target shipped).
 *
 * Type checking is one workspace target, `workspace:typecheck` (root `project.json`, root
 * `tsconfig.json` over every package's sources, tests, benches and examples): one TypeScript
 * program checks each file once, where seventeen per-package programs re-checked every sibling's
 * sources they import through `@critsec/source` (116 CPU-s against 14). A package's own
 * `tsconfig.json` stays for editors and TypeDoc; `npx tsc --noEmit -p packages/<name>` checks one.
 *
 * `npx nx show project <name> --json` shows the result for one package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** @type {import('nx/src/project-graph/plugins').CreateNodesV2} */
export const createNodesV2 = [
  'packages/*/package.json',
  (files, _options, context) =>
    files.map((file) => {
      const root = dirname(file);
      const has = (name) => existsSync(join(context.workspaceRoot, root, name));
      const manifest = JSON.parse(readFileSync(join(context.workspaceRoot, file), 'utf8'));
      const targets = { lint: {} };
      if (has('vitest.config.ts')) targets.test = {};
      if (has('tsup.config.ts')) {
        targets.build = {};
        if (manifest.private !== true) targets['check-package'] = {};
      }
      return [file, { projects: { [root]: { targets } } }];
    }),
];
