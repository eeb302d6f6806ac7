import { packageBuild } from '../../tools/build.js';

// `src/cli.ts` is the program the `critsec` bin runs once built (see bin/critsec.js).
export default packageBuild({ entry: ['src/index.ts', 'src/cli.ts'] });
