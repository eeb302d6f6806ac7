import { packageBuild } from '../../tools/build.js';

// `src/cli.ts` is the program the `critsec` bin runs once built (see bin/critsec.js) and
// `src/node-main.ts` the member process `critsec cluster` spawns; `shims` gives the CJS build
// `import.meta.url` (used to find package.json and the member entry).
export default packageBuild({ entry: ['src/index.ts', 'src/cli.ts', 'src/node-main.ts'], shims: true });
