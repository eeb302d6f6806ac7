import { packageBuild } from '../../tools/build.js';

// Two entries: the library, and the cluster member process the launcher spawns
// (dist/cluster-node.js). `shims` gives the CJS build an import.meta.url, which the launcher
// uses to find that entry next to itself.
export default packageBuild({
  entry: { index: 'src/index.ts', 'cluster-node': 'src/cluster-node-main.ts' },
  shims: true,
});
