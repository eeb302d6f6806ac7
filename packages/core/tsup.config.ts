import { packageBuild } from '../../tools/build.js';

// Two entries: the contract, and the subpath `@critsec/core/kit` (the building blocks of an
// algorithm). Code splitting keeps one copy of each module the two share, so an error class
// thrown through one entry is the class `instanceof` checks through the other.
export default packageBuild({ entry: ['src/index.ts', 'src/kit.ts'], splitting: true });
