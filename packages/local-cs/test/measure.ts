import type { ProcessId } from '@critsec/core';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { exitEntryPairs } from '@critsec/testing';
import { exponentialDelay, uniformDelay, unitDelay } from '@critsec/transport-sim';
import type { Instance } from './families.js';

/** Messages of each completed exit+entry pair, per process (k-th entry with k-th exit). */
function pairMessages(r: WorkloadResult): Map<ProcessId, number[]> {
  const out = new Map<ProcessId, number[]>();
  for (const { process, entry, exit } of exitEntryPairs(r.records)) {
    const list = out.get(process) ?? [];
    list.push(entry.messages + exit.messages);
    out.set(process, list);
  }
  return out;
}

/** Runs `seeds` seeds of a workload and returns, per process, the max and min messages per pair. */
export async function measurePairs(
  x: Instance,
  kind: 'sequential' | 'concurrent',
  seeds: number,
  options: { rounds?: number; think?: number; hold?: number; sequentialSpec?: Instance['spec'] } = {},
  worst?: (p: ProcessId) => number,
): Promise<{ max: number[]; min: number[]; pairs: number; overWorst: number }> {
  const n = x.graph.n;
  const max = new Array<number>(n).fill(0);
  const min = new Array<number>(n).fill(Number.POSITIVE_INFINITY);
  let pairs = 0;
  let overWorst = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const delay =
      kind === 'sequential' ? unitDelay : [unitDelay, uniformDelay(0.1, 2), exponentialDelay(1)][seed % 3]!;
    const cluster = createCluster({
      factory: x.factory,
      spec: (kind === 'sequential' ? options.sequentialSpec : undefined) ?? x.spec,
      initial: x.initial,
      seed,
      delay,
      attribution: kind === 'concurrent',
    });
    const r = await runWorkload(cluster, {
      kind,
      rounds: options.rounds ?? 3,
      think: options.think ?? 0.5,
      hold: options.hold ?? 0.5,
    });
    if (!r.ok) throw new Error(`${x.name}: seed ${seed}: ${r.failure ?? r.violation?.message}`);
    for (const [p, list] of pairMessages(r)) {
      for (const m of list) {
        pairs++;
        if (worst !== undefined && m > worst(p)) overWorst++;
        if (m > max[p]!) max[p] = m;
        if (m < min[p]!) min[p] = m;
      }
    }
  }
  return { max, min, pairs, overWorst };
}
