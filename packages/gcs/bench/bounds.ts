/**
 * Prints (l,k)-GCS's measured costs beside Theorem 4's bounds: waiting times under unit delays
 * without contention, and messages per exit+entry pair (lmin's + kmex's) on grid coteries of
 * growing n — messages / |Q| stays flat, O(√n).
 *
 *   npm run bench        (from packages/gcs)
 */
import { globalSpec } from '@critsec/core';
import { type Coterie, grid, majority, projectivePlane } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { gcs, kMutex } from '../src/index.js';
import { channelTotal, sequentialPairs } from '../test/measure.js';

async function row(label: string, coterie: Coterie, l: number, k: number) {
  const n = coterie.n;
  const q = Math.max(...coterie.quorums.map((x) => x.length));
  const isK = label.startsWith('kMutex');
  const factory = isK ? kMutex({ k, coterie }) : gcs({ l, k, coterie });
  const [exitBound, entryBound] = isK ? [2, 7] : [9, 9];
  const cluster = createCluster({ factory, spec: globalSpec(l, k, n) });
  const { result: r, pairs } = await sequentialPairs(cluster, 1);
  if (!r.ok) throw new Error(`${label}: ${r.failure}`);
  const lmin = Math.max(...pairs.map((p) => channelTotal(p, 'lmin')));
  const kmex = Math.max(...pairs.map((p) => channelTotal(p, 'kmex') + channelTotal(p, '')));
  console.log(
    [
      label.padEnd(30),
      String(n).padStart(4),
      String(q).padStart(4),
      `${r.waiting.exit.max} (≤ ${exitBound})`.padStart(8),
      `${r.waiting.entry.max} (≤ ${entryBound})`.padStart(8),
      r.perPair.mean.toFixed(1).padStart(7),
      String(r.perPair.max).padStart(5),
      `${lmin}+${kmex} ≤ ${6 * q}+${6 * q}`.padStart(17),
      (r.perPair.mean / q).toFixed(2).padStart(7),
    ].join(' '),
  );
}

console.log('(l,k)-GCS, sequential workload (no contention), unit delays, 1 round per process, mx = maekawa');
console.log(
  `${'configuration'.padEnd(30)}    n  |Q|  exit max entry max mean/pair  max  own msgs (lmin+kmex)  msgs/|Q|`,
);
for (const n of [16, 64, 256]) await row(`grid, l = n/8, k = n/2`, grid(n), n / 8, n / 2);
await row('majority, l = 1, k = 2', majority(3), 1, 2);
await row('grid 12 servers, l = 2, k = 5', grid(12), 2, 5);
await row('projective plane q=3, (3, 4)', projectivePlane(3), 3, 4);
await row('kMutex grid, k = 3', grid(9), 0, 3);
