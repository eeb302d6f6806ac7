import { packageBuild } from '../../tools/build.js';

// Four entries: the library; the member process of the launcher's default entry
// (dist/cluster-node.js, which loads the configuration's algorithm as a module); the member
// process of `critsec` clusters (dist/node-main.js, algorithms by name); and the subpath
// `@critsec/cluster/member` (the member workload as a cluster workload module). `shims` gives
// the CJS build an import.meta.url, which the launchers use to find those entries next to them.
export default packageBuild({
  entry: {
    index: 'src/index.ts',
    'cluster-node': 'src/cluster-node-main.ts',
    'node-main': 'src/node-main.ts',
    member: 'src/member.ts',
  },
  shims: true,
});
