/**
 * The one build configuration every publishable package uses.
 *
 * Each package's `tsup.config.ts` is `export default packageBuild()`; swap the bundler here and
 * every package follows. Output: ESM (`dist/index.js`), CJS (`dist/index.cjs`) and declarations
 * for both (`.d.ts` / `.d.cts`), with source maps; `node20` target; dependencies stay external.
 */
import { defineConfig, type Options } from 'tsup';

export function packageBuild(overrides: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: { compilerOptions: { ignoreDeprecations: '6.0', composite: false } },
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: false,
    treeshake: true,
    ...overrides,
  });
}
