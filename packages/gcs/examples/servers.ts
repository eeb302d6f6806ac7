/**
 * "At least 2 and at most 5 of 12 servers are up" — the global-CS paper's motivating example
 * (Sec. 1: dynamic invocation of servers, at least l for fault tolerance, at most k for cost).
 * A server is up while it is InCS of a (2,5)-GCS; each one takes shifts with `withCS` on the
 * simulated network, and the cluster's monitor checks 2 ≤ #up ≤ 5 at every change.
 *
 *   npm run example        (from packages/gcs)
 */
import { type CSState, globalSpec, withCS } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { gcs } from '@critsec/gcs';
import { createCluster } from '@critsec/harness';

const n = 12;
const [l, k] = [2, 5];
const initial: CSState[] = Array.from({ length: n }, (_, i) => (i < l ? 'InCS' : 'OutCS')); // servers 0, 1 up
const cluster = createCluster({
  factory: gcs({ l, k, coterie: grid(n) }),
  spec: globalSpec(l, k, n),
  initial,
  seed: 42,
});
const { net, objects, monitor } = cluster;

let minUp = n;
let maxUp = 0;
const track = () => {
  minUp = Math.min(minUp, monitor.inCS);
  maxUp = Math.max(maxUp, monitor.inCS);
};
for (const cs of objects) cs.on('statechange', track);
const shifts = new Array<number>(n).fill(0);

async function server(i: number): Promise<void> {
  const cs = objects[i]!;
  const rng = net.rng(`server ${i}`);
  if (cs.state === 'InCS') {
    await net.sleep(1 + rng.next() * 4); // started up: serve a while, then go down for maintenance
    await cs.exit();
  }
  for (;;) {
    await net.sleep(rng.next() * 4); // down
    await withCS(cs, async () => {
      shifts[i]!++;
      await net.sleep(15 + rng.next() * 20); // up: serving
    });
  }
}

for (let i = 0; i < n; i++) server(i).catch(() => {}); // rejected with AbortError at close()
await net.run({ until: 300 });
await cluster.close();

console.log(`12 servers, 300 time units: ${shifts.reduce((a, b) => a + b, 0)} shifts (${shifts.join(' ')})`);
console.log(
  `servers up: min ${minUp}, max ${maxUp} (bounds ${l}..${k}); violations: ${monitor.violations.length}`,
);
