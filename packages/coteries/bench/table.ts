/**
 * Prints the README's table of constructions, computed by the library itself:
 *
 *   npm run table -w packages/coteries
 */
import {
  availability,
  type Coterie,
  cubeHKArbiter,
  cubeKArbiter,
  faultTolerance,
  grid,
  groupDegree,
  groupFromCoterie,
  majority,
  optimalLoad,
  projectivePlane,
  quorumSizes,
  surficial,
  tree,
  triangle,
  uniformHKArbiter,
  uniformKArbiter,
  wheel,
} from '../src/index.js';

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));

function row(name: string, source: string, formula: string, c: Coterie) {
  const s = quorumSizes(c);
  const l = optimalLoad(c);
  const f = faultTolerance(c, { budget: 1_000_000 });
  const a = availability(c, 0.1, { samples: 20_000, seed: 1 });
  const size = s.min === s.max ? `${s.min}` : `${s.min}–${s.max}`;
  const load = `${fmt(l.load)}${l.exact ? '' : ` (≥ ${fmt(l.lowerBound)})`}`;
  const ft = f.exact ? `${f.faultTolerance}` : `${f.lowerBound}–${f.faultTolerance}`;
  const av = `${a.availability.toFixed(4)}${a.exact ? '' : ' (MC)'}`;
  console.log(
    `| \`${name}\` | ${source} | ${formula} | ${c.n} | ${s.count} | ${size} | ${load} | ${ft} | ${av} |`,
  );
}

console.log(
  '| construction | paper | \\|Q\\| formula | n | quorums | \\|Q\\| | load L | fault tolerance | availability p = 0.1 |',
);
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
row('majority(15)', 'global-CS Ex. 1', '(n+1)/2', majority(15));
row('majority(16)', 'global-CS Ex. 1', 'n/2 or n/2+1', majority(16));
row('grid(16)', 'global-CS Ex. 2', '2√n − 1', grid(16));
row('grid(64)', 'global-CS Ex. 2', '2√n − 1', grid(64));
row('grid(20)', 'extension', '≤ ⌈√n⌉ + ⌈n/⌈√n⌉⌉ − 1', grid(20));
row('projectivePlane(3)', 'Maekawa', 'q + 1', projectivePlane(3));
row('projectivePlane(7)', 'Maekawa', 'q + 1', projectivePlane(7));
row('tree(15)', 'Agrawal–El Abbadi', 'log₂(n+1)', tree(15));
row('triangle(5)', 'Peleg–Wool', 'n_i + rows below', triangle(5));
row('wheel(8)', 'Peleg–Wool', '2 or n − 1', wheel(8));
row('uniformKArbiter(16, 2)', 'h-out-of-k §2.3', '⌊kn/(k+1)⌋ + 1', uniformKArbiter(16, 2));
row('cubeKArbiter(27, 2)', 'h-out-of-k §2.3', 'a^(k+1) − (a−1)^(k+1)', cubeKArbiter(27, 2));
for (let h = 1; h <= 3; h++)
  row(
    `uniformHKArbiter(16, 3).quorumSet(${h})`,
    'h-out-of-k §3.2',
    '⌊kn/(k+h)⌋ + 1',
    uniformHKArbiter(16, 3).quorumSet(h),
  );
for (let h = 1; h <= 3; h++)
  row(
    `cubeHKArbiter(81, 3).quorumSet(${h})`,
    'h-out-of-k §3.3',
    '≤ (k+2−z_h)·a^(k+1−z_h)',
    cubeHKArbiter(81, 3).quorumSet(h),
  );

console.log('\n| group quorum system | paper | n | m | quorums per cartel | \\|Q\\| | degree |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const [name, g] of [
  ['surficial(12, 3)', surficial(12, 3)],
  ['surficial(54, 4)', surficial(54, 4)],
  ['surficial(36, 2)', surficial(36, 2)],
  ['surficial(40, 3, { fit: "wrap" })', surficial(40, 3, { fit: 'wrap' })],
  ['groupFromCoterie(grid(16), 3)', groupFromCoterie(grid(16), 3)],
] as const) {
  const sizes = g.cartels.flat().map((q) => q.length);
  const per = [...new Set(g.cartels.map((c) => c.length))].join('/');
  const size =
    Math.min(...sizes) === Math.max(...sizes) ? `${sizes[0]}` : `${Math.min(...sizes)}–${Math.max(...sizes)}`;
  const d = groupDegree(g);
  console.log(
    `| \`${name}\` | ${g.kind === 'surficial' ? 'group-mutex Fig. 3' : 'group-mutex §3, T_m'} | ${g.n} | ${g.m} | ${per} | ${size} | ${d.degree}${d.exact ? '' : '+'} |`,
  );
}
