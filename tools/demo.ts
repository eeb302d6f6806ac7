/**
 * `npm start`: a small simulated cluster, run end to end on the deterministic simulated network
 * with the safety monitor on, printing a summary. (The `critsec` CLI replaces this script.)
 */
import { mutexSpec } from '@critsec/core';
import { centralMutex, createCluster, runWorkload } from '@critsec/testing';
import { exponentialDelay, formatDelay, unitDelay } from '@critsec/transport-sim';

const n = 9;
const rounds = 20;
for (const [kind, delay] of [
  ['sequential', unitDelay],
  ['concurrent', exponentialDelay(1)],
] as const) {
  const cluster = createCluster({ factory: centralMutex(), spec: mutexSpec(n), seed: 1, delay });
  const t0 = performance.now();
  const r = await runWorkload(cluster, { kind, rounds });
  const ms = performance.now() - t0;
  console.log(`central-coordinator mutex, n = ${n}, ${rounds} rounds, ${kind} workload, delay ${formatDelay(delay)}`);
  console.table({
    entries: r.entries,
    exits: r.exits,
    'safety violations': r.violation === null ? 0 : 1,
    'stuck processes': r.stuck.length,
    'messages per exit+entry pair (mean)': Number(r.perPair.mean.toFixed(2)),
    'entry waiting time, time units (mean / max)': `${r.waiting.entry.mean.toFixed(2)} / ${r.waiting.entry.max.toFixed(2)}`,
    'exit waiting time, time units (mean / max)': `${r.waiting.exit.mean.toFixed(2)} / ${r.waiting.exit.max.toFixed(2)}`,
    'simulated time (time units)': Number(r.simulatedTime.toFixed(2)),
    'wall time (ms)': Number(ms.toFixed(1)),
  });
  if (!r.ok) {
    console.error(`FAILED: ${r.failure ?? r.violation?.message}`);
    process.exitCode = 1;
  }
}
