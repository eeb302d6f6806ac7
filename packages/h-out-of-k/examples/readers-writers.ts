/**
 * Readers–writers with h-out-of-k mutual exclusion: a reader takes 1 unit (shared), a writer
 * takes all k units (exclusive), so at most k readers read together and a writer is alone —
 * without a central lock server and without the hold-and-wait deadlock of taking units one by one.
 * Runs on the simulated network; its safety monitor checks Σ units held ≤ k at every change.
 *
 *   npm run example        (from packages/h-out-of-k)
 */
import { hOutOfKSpec, withCS } from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { hOutOfK } from '@critsec/h-out-of-k';
import { createCluster } from '@critsec/harness';

const [n, k] = [6, 3]; // 6 processes; up to 3 readers at once; P0 and P3 write
const cluster = createCluster({
  factory: hOutOfK({ k, arbiter: uniformHKArbiter(n, k) }),
  spec: hOutOfKSpec(k, n),
});
const { net, objects, monitor } = cluster;
let [readers, writers, maxReaders, writes, reads, overlaps] = [0, 0, 0, 0, 0, 0];

async function access(i: number, mode: 'read' | 'write'): Promise<void> {
  const h = mode === 'read' ? 1 : k; // shared = 1 unit, exclusive = k units
  monitor.setRequest(i, h); // tells the simulator's monitor the units of this entry
  await withCS(
    objects[i]!,
    async () => {
      mode === 'read' ? readers++ : writers++;
      maxReaders = Math.max(maxReaders, readers);
      if (writers > 1 || (writers === 1 && readers > 0)) overlaps++;
      await net.sleep(mode === 'read' ? 3 : 1); // use the resource (time units)
      if (mode === 'read') [readers, reads] = [readers - 1, reads + 1];
      else [writers, writes] = [writers - 1, writes + 1];
    },
    h,
  );
}

const jobs = objects.map(async (_, i) => {
  for (let round = 0; round < 5; round++) {
    await net.sleep(i % 3 === 0 ? 2 : 0.1 * i);
    await access(i, i % 3 === 0 ? 'write' : 'read');
  }
});
await net.run();
await Promise.all(jobs);
console.log(`${reads} reads, ${writes} writes; at most ${maxReaders} readers together (k = ${k})`);
console.log(
  `a writer shared the resource ${overlaps} times; monitor violations: ${monitor.violations.length}`,
);
