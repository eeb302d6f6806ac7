/**
 * The long compliance run (`npm run test:long`): the h-out-of-k monitor (Σ units held ≤ k at
 * every state change) over 10,400 seeded runs — uniform and (k+1)-cube (h,k)-arbiters, k = 1..4,
 * instances where every arbiter serves ≥ 3 requesters, exponential and uniform delays, h drawn
 * per entry, a third of the runs with aborts. Asserts 0 violations and 0 stuck processes
 * (Theorems 5–6) and that every rare path was taken; prints the totals.
 */
import { hOutOfKSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { cubeHKArbiter, type HKArbiter, uniformHKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { exponentialDelay, formatDelay, uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { hOutOfK, hOutOfKRarePaths } from '../src/index.js';
import { minRequesters, randomH } from './helpers.js';

const SEEDS = 650; // per configuration and delay model: 8 × 2 × 650 = 10,400 runs
const configs: HKArbiter[] = [
  uniformHKArbiter(5, 1),
  cubeHKArbiter(4, 1),
  uniformHKArbiter(6, 2),
  cubeHKArbiter(8, 2),
  uniformHKArbiter(7, 3),
  cubeHKArbiter(16, 3),
  uniformHKArbiter(9, 4),
  cubeHKArbiter(20, 4),
];
const delays = [exponentialDelay(1), uniformDelay(0.1, 2)];

describe('h-out-of-k, long compliance run', () => {
  it(`${configs.length} arbiters × ${delays.length} delay models × ${SEEDS} seeds: 0 violations, 0 stuck`, async () => {
    const reached = collectReached();
    let runs = 0;
    let entries = 0;
    let aborted = 0;
    const failures: string[] = [];
    const lines: string[] = [];
    for (const arbiter of configs) {
      const { n, k } = arbiter;
      expect(minRequesters(arbiter), `${arbiter.description}`).toBeGreaterThanOrEqual(3);
      for (const delay of delays) {
        let e = 0;
        for (let seed = 1; seed <= SEEDS; seed++) {
          const cluster = createCluster({
            factory: hOutOfK({ k, arbiter }),
            spec: hOutOfKSpec(k, n),
            seed,
            delay,
          });
          const r = await runWorkload(cluster, {
            rounds: 3,
            think: 1,
            hold: 1,
            request: randomH(k),
            abort: seed % 3 === 0 ? { probability: 0.3, within: 3 } : undefined,
          });
          runs++;
          e += r.entries;
          aborted += r.aborted;
          if (!r.ok || cluster.errors.length > 0)
            failures.push(
              `${arbiter.description}, ${formatDelay(delay)}, seed ${seed}: ${r.violation?.message ?? r.failure ?? cluster.errors[0]?.error.message}`,
            );
        }
        entries += e;
        lines.push(`  ${arbiter.description}, ${formatDelay(delay)}: ${SEEDS} seeds, ${e} entries`);
      }
    }
    reached.stop();
    console.info(
      `long compliance: ${runs} runs, ${entries} entries, ${aborted} aborted entries, ${failures.length} failures (violations or stuck)\n${lines.join('\n')}`,
    );
    expect(failures).toEqual([]);
    expect(runs).toBeGreaterThanOrEqual(10_000);
    expect(reached.missing(hOutOfKRarePaths)).toEqual([]);
  });
});
