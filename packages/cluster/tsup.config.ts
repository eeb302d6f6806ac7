import { packageBuild } from '../../tools/build.js';

// Five entries: the library; the one member process the launcher spawns (dist/member-main.js:
// `--member modules` loads the configuration's algorithm and workload as modules, `--member
// critsec` runs critsec's algorithms by name); the subpath `@critsec/cluster/member` (the
// member workload as a cluster workload module); and the chaos runs' member modules
// (dist/launcher-chaos-member.js and, over named locks, dist/launcher-chaos-locks-member.js: each
// its algorithm and workload, named by path). `shims` gives the CJS build an
// import.meta.url, which the launcher uses to find the member main next to it.
export default packageBuild({
  entry: {
    index: 'src/index.ts',
    'member-main': 'src/member-main.ts',
    member: 'src/member.ts',
    'launcher-chaos-member': 'src/launcher-chaos-member.ts',
    'launcher-chaos-locks-member': 'src/launcher-chaos-locks-member.ts',
  },
  shims: true,
});
