/**
 * The architecture check (`nx run workspace:depcruise`, part of `npm test`): the layer order of
 * ARCHITECTURE.md, declared dependencies and no cycles, checked by dependency-cruiser over every
 * source, test, bench and example file of `packages/`, and `tools/`.
 *
 * - Layers: a package's `src/` may import only `@critsec/*` packages of a LOWER layer, so nothing
 *   imports upward or sideways and the packages form no cycle. Adding a package is one line in
 *   LAYER.
 * - Declared: every import names a package its closest package.json (or the root one) declares;
 *   `src/` imports only `dependencies`, never `devDependencies` (@critsec/testing, vitest …), so
 *   the published package runs with what it declares.
 * - No cycles, between packages or between the files of one package (type-only imports count).
 *
 * Workspace packages are resolved as installed (`node_modules/@critsec/<name>`, symlinks kept) with
 * the `@critsec/source` export condition, so dependency-cruiser classifies each import by the
 * importing package's package.json.
 */

/** The layer of every package (directory name under packages/): imports go to lower numbers only. */
const LAYER = {
  core: 0,
  client: 0,
  transport: 1,
  coteries: 1,
  store: 1,
  'transport-sim': 2,
  'transport-tcp': 2,
  harness: 3,
  testing: 4,
  mutex: 4,
  complement: 4,
  'h-out-of-k': 4,
  'group-mutex': 4,
  mutin: 5,
  'local-cs': 5,
  gcs: 6,
  locks: 6,
  cluster: 7,
  service: 8,
  cli: 9,
  'integration-tests': 10,
  'bench-locks': 10,
};

const names = Object.keys(LAYER);
/** A regex alternation of package names (escaped). */
const alt = (list) => list.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
const layers = [...new Set(Object.values(LAYER))].sort((a, b) => a - b);

/** One rule per layer: its packages' src/ may not import a package of the same or a higher layer. */
const layerRules = layers.map((layer) => ({
  name: `layer-${layer}`,
  comment: `src/ of a layer-${layer} package imports @critsec packages of lower layers only (LAYER in .dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: `^packages/(${alt(names.filter((n) => LAYER[n] === layer))})/src/` },
  to: {
    path: `^node_modules/@critsec/(${alt(names.filter((n) => LAYER[n] >= layer))})(/|$)`,
    pathNot: '^node_modules/@critsec/$1(/|$)',
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'layer-unknown',
      comment: 'every package has a layer: add it to LAYER in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^packages/[^/]+/', pathNot: `^packages/(${alt(names)})/` },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'no import cycle, between packages or between the files of one package',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-not-to-dev-dep',
      comment: 'src/ imports only "dependencies" (a devDependency such as @critsec/testing is for tests)',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'no-non-package-json',
      comment: 'every imported package is declared in the closest package.json (or the root one)',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'every import resolves',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    exclude: { path: '(^|/)(dist|coverage|\\.nx|\\.stryker-tmp)/' },
    doNotFollow: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    preserveSymlinks: true,
    combinedDependencies: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      conditionNames: ['@critsec/source', 'import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
