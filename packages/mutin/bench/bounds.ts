/**
 * Prints MUTIN(l)'s measured costs beside the paper's bounds (global-CS paper, Lemmas 3–4):
 * waiting times under unit delays without contention, and messages per exit+entry pair on grid
 * coteries of growing n (messages / |Q| stays flat: O(√n)).
 *
 *   npm run bench        (from packages/mutin)
 */
import { globalSpec } from '@critsec/core';
import { grid, majority, projectivePlane } from '@critsec/coteries';
import { ricartAgrawala } from '@critsec/mutex';
import { createCluster } from '@critsec/harness';
import { mutin } from '../src/index.js';
import { channelTotal, sequentialPairs } from '../test/measure.js';

async function row(
  label: string,
  coterie: ReturnType<typeof grid>,
  l: number,
  mx?: Parameters<typeof mutin>[0]['mx'],
) {
  const n = coterie.n;
  const q = Math.max(...coterie.quorums.map((x) => x.length));
  const cluster = createCluster({
    factory: mutin({ l, coterie, ...(mx ? { mx } : {}) }),
    spec: globalSpec(l, n, n),
  });
  const { result: r, pairs } = await sequentialPairs(cluster, 1);
  if (!r.ok) throw new Error(`${label}: ${r.failure}`);
  const own = Math.max(...pairs.map((p) => channelTotal(p, '')));
  console.log(
    [
      label.padEnd(34),
      String(n).padStart(4),
      String(q).padStart(4),
      `${r.waiting.exit.max} (≤ 7)`.padStart(9),
      `${r.waiting.entry.max} (≤ 2)`.padStart(9),
      r.perPair.mean.toFixed(1).padStart(7),
      String(r.perPair.max).padStart(5),
      `${own} ≤ ${6 * q}`.padStart(12),
      (r.perPair.mean / q).toFixed(2).padStart(7),
    ].join(' '),
  );
}

console.log('MUTIN(l), sequential workload (no contention), unit delays, 1 round per process');
console.log(
  `${'configuration'.padEnd(34)}    n  |Q|  exit max entry max  mean/pair  max  MUTIN-own max  msgs/|Q|`,
);
for (const n of [16, 64, 256]) await row(`grid, l = n/4, mx = maekawa`, grid(n), n / 4);
for (const n of [16, 64]) await row(`grid, l = n/4, mx = ricart-agrawala`, grid(n), n / 4, ricartAgrawala());
await row('majority, l = 4', majority(9), 4);
await row('projective plane q = 3, l = 6', projectivePlane(3), 6);
await row('projective plane q = 7, l = 20', projectivePlane(7), 20);
