import { packageBuild } from '../../tools/build.js';

// `src/cli.ts` is the program the `critsec` bin runs once built (see bin/critsec.js);
// `shims` gives the CJS build `import.meta.url` (used to find package.json).
export default packageBuild({
  entry: ['src/index.ts', 'src/cli.ts'],
  shims: true,
});
