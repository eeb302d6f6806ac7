/**
 * Sec. 4.4 of the paper, measured: surficial group quorum systems against T_m(ordinary coterie)
 * — quorum size c, degree, max[g] of the subgroup assignment, Theorem 5's worst case 3c + 3c·max[g]
 * (eq. (1) for the surficial system), messages per entry (no contention: exact; contention: mean
 * over the run), and the concurrency observed when one group asks with every process.
 *
 *   npm run bench            (from packages/group-mutex)
 */
import { groupSpec } from '@critsec/core';
import {
  type GroupQuorumSystem,
  grid,
  groupFromCoterie,
  projectivePlane,
  surficial,
} from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { groupMutex, groupMutexBounds } from '../src/index.js';

async function messages(system: GroupQuorumSystem, variant: 'M' | 'S', kind: 'sequential' | 'concurrent') {
  let total = 0;
  let pairs = 0;
  for (let seed = 1; seed <= 3; seed++) {
    const c = createCluster({
      factory: groupMutex({ system, variant }),
      spec: groupSpec(system.m, system.n),
      seed,
    });
    const r = await runWorkload(c, {
      kind,
      rounds: 3,
      think: 1,
      hold: 1,
      request: (rng) => rng.int(system.m),
    });
    if (!r.ok) throw new Error(`${system.description} ${variant} seed ${seed}: ${r.failure}`);
    total += r.perPair.mean * r.perPair.count;
    pairs += r.perPair.count;
  }
  return total / pairs;
}

async function concurrency(system: GroupQuorumSystem, variant: 'M' | 'S'): Promise<number> {
  const c = createCluster({ factory: groupMutex({ system, variant }), spec: groupSpec(system.m, system.n) });
  let inCS = 0;
  let max = 0;
  for (const cs of c.objects) {
    cs.on('statechange', (s) => {
      inCS += s === 'InCS' ? 1 : -1;
      max = Math.max(max, inCS);
    });
  }
  const all = Promise.all(
    c.objects.map((cs, i) => {
      c.monitor.setRequest(i, 0);
      return cs.entry(0);
    }),
  );
  void all.then(() => c.net.stop());
  await c.net.run();
  await all;
  return max;
}

const rows: [string, GroupQuorumSystem][] = [
  ['surficial(9, 2)', surficial(9, 2)],
  ['T_2(grid(9))', groupFromCoterie(grid(9), 2)],
  ['surficial(25, 2)', surficial(25, 2)],
  ['T_2(grid(25))', groupFromCoterie(grid(25), 2)],
  ['surficial(12, 3)', surficial(12, 3)],
  ['T_3(grid(12))', groupFromCoterie(grid(12), 3)],
  ['T_3(projective-plane(13))', groupFromCoterie(projectivePlane(3), 3)],
  ['surficial(27, 3)', surficial(27, 3)],
  ['T_3(grid(27))', groupFromCoterie(grid(27), 3)],
  ['surficial(24, 4)', surficial(24, 4)],
  ['T_4(grid(24))', groupFromCoterie(grid(24), 4)],
];

console.log(
  '| system | n | m | c | deg | max[g] | M worst 3c+3c·max[g] | M msgs/entry, no contention | M msgs/entry, contention | S 2c+1 | S msgs/entry, contention | concurrency (all n ask one group) M / S |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [label, system] of rows) {
  const b = groupMutexBounds({ system, variant: 'M' });
  const s = groupMutexBounds({ system, variant: 'S' });
  const cs = b.c === b.cMin ? `${b.c}` : `${b.cMin}–${b.c}`;
  const row = [
    label,
    system.n,
    system.m,
    cs,
    b.degree,
    Math.max(...b.maxLocks),
    b.worstPerEntry,
    (await messages(system, 'M', 'sequential')).toFixed(1),
    (await messages(system, 'M', 'concurrent')).toFixed(1),
    s.c === s.cMin ? `${s.uncontended.max}` : `${s.uncontended.min}–${s.uncontended.max}`,
    (await messages(system, 'S', 'concurrent')).toFixed(1),
    `${await concurrency(system, 'M')} / ${await concurrency(system, 'S')}`,
  ];
  console.log(`| ${row.join(' | ')} |`);
}
