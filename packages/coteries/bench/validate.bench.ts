/**
 * Validation benchmark (issue #3): time to build and to validate (intersection + minimality on
 * bitsets) grid coteries of n = 256, 1,024, 4,096, plus other constructions for comparison.
 *
 *   npm run bench -w packages/coteries
 *
 * Prints a markdown table: median of several runs, in milliseconds, on this machine.
 */
import { checkCoterie, type Coterie, fromQuorums, grid, majority, projectivePlane } from '../src/index.js';

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const v = fn();
  return [v, performance.now() - t0];
}

interface Row {
  name: string;
  n: number;
  quorums: number;
  size: number;
  build: number;
  validate: number;
  result: string;
}

function bench(name: string, make: () => Coterie, runs: number): Row {
  const builds: number[] = [];
  const checks: number[] = [];
  let c: Coterie | undefined;
  let result = '';
  for (let r = 0; r < runs; r++) {
    const [built, tb] = time(make);
    builds.push(tb);
    c = built;
    // A fresh copy through fromQuorums' input path would re-validate; checkCoterie on a plain
    // `{ n, quorums }` object (new arrays each run) measures the validator alone, without caches.
    const plain = { n: built.n, quorums: built.quorums.map((q) => q.slice()) };
    const [res, tc] = time(() => checkCoterie(plain));
    checks.push(tc);
    result = res.ok ? 'ok' : res.message;
  }
  return {
    name,
    n: c!.n,
    quorums: c!.quorums.length,
    size: c!.quorums[0]!.length,
    build: median(builds),
    validate: median(checks),
    result,
  };
}

const rows: Row[] = [];
for (const n of [256, 1024, 4096]) rows.push(bench(`grid(${n})`, () => grid(n), n === 4096 ? 5 : 9));
rows.push(bench('grid(4000) (non-square)', () => grid(4000), 5));
rows.push(bench('majority(1025)', () => majority(1025), 5));
rows.push(bench('majority(1024)', () => majority(1024), 5));
rows.push(bench('projectivePlane(31) (n = 993)', () => projectivePlane(31), 5));

// A broken system: the 1,024 grid with the last process's quorum cut down to {1023}.
const g = grid(1024);
const broken = g.toJSON().assignment.map((q) => [...q]);
broken[1023] = [1023];
const [err, tBroken] = time(() => {
  try {
    fromQuorums(1024, broken);
    return 'accepted';
  } catch (e) {
    return (e as Error).message;
  }
});

console.log(`Node ${process.version}, ${process.platform}/${process.arch}; median times in ms\n`);
console.log(
  '| system | n | distinct quorums | \\|Q\\| | build + validate (ms) | validate alone (ms) | result |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.n} | ${r.quorums} | ${r.size} | ${r.build.toFixed(1)} | ${r.validate.toFixed(1)} | ${r.result} |`,
  );
}
console.log(`\nbroken grid(1024) rejected by fromQuorums in ${tBroken.toFixed(1)} ms:\n  ${err}`);
