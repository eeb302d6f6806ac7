/**
 * nx plugin (nx.json `plugins`): infers every package's standard targets from the files it has,
 * so no package.json repeats them. What each target runs, reads and caches is written once, in
 * nx.json `targetDefaults`; a package.json keeps only its own scripts (example, bench, test:long …).
 *
 * | target          | a package gets it when it has                     |
 * |-----------------|---------------------------------------------------|
 * | `typecheck`     | `tsconfig.json`                                   |
 * | `lint`          | (every package)                                   |
 * | `test`          | `vitest.config.ts`                                |
 * | `build`         | `tsup.config.ts`                                  |
 * | `check-package` | `tsup.config.ts` and is published (not `private`) |
 *
 * `check-package` runs tools/check-package.mjs (the packed tarball: publint --strict, attw under its
 * default profile, LICENSE and repository/homepage/bugs/keywords, every exports target shipped).
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
      if (has('tsconfig.json')) targets.typecheck = {};
      if (has('vitest.config.ts')) targets.test = {};
      if (has('tsup.config.ts')) {
        targets.build = {};
        if (manifest.private !== true) targets['check-package'] = {};
      }
      return [file, { projects: { [root]: { targets } } }];
    }),
];
