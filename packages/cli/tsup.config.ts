import { packageBuild } from '../../tools/build.js';

// `src/cli.ts` is the program the `critsec` bin runs once built (see bin/critsec.js),
// `src/node-main.ts` the member process `critsec cluster` spawns, and `src/member.ts` the
// subpath `@critsec/cli/member` (the member workload as a cluster workload module); `shims`
// gives the CJS build `import.meta.url` (used to find package.json and the member entry).
export default packageBuild({
  entry: ['src/index.ts', 'src/cli.ts', 'src/node-main.ts', 'src/member.ts'],
  shims: true,
});
