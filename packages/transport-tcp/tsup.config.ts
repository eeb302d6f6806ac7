import { packageBuild } from '../../tools/build.js';

// Two entries: the transport, and the subpath `@critsec/transport-tcp/setup` (certificates,
// free loopback ports).
export default packageBuild({ entry: ['src/index.ts', 'src/setup.ts'] });
