import { packageBuild } from '../../tools/build.js';

// Three entries: the library; the one member process the launcher spawns (dist/member-main.js:
// `--member modules` loads the configuration's algorithm and workload as modules, `--member
// critsec` runs critsec's algorithms by name); and the subpath `@critsec/cluster/member` (the
// member workload as a cluster workload module). `shims` gives the CJS build an
// import.meta.url, which the launcher uses to find the member main next to it.
export default packageBuild({
  entry: {
    index: 'src/index.ts',
    'member-main': 'src/member-main.ts',
    member: 'src/member.ts',
  },
  shims: true,
});
