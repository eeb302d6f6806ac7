/**
 * The reason the package exists (h-out-of-k paper, Sec. 1): "Assume that there are k units and
 * two processes, p_1 and p_2. Process p_1 requests h_1 units and process p_2 requests h_2 units,
 * but h_1 + h_2 > k. If process p_1 can only obtain h_1' (< h_1) units, process p_2 can only obtain
 * h_2' (< h_2) units, and h_1' + h_2' = k, a deadlock is created." Taking h units one at a time
 * through a k-mutex (the k-arbiter algorithm with h = 1 per unit) deadlocks on exactly that
 * example, and the workload's liveness check reports it; `hOutOfK` completes the same workload.
 */
import { hOutOfKSpec } from '@critsec/core';
import { uniformKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { asHKArbiter, hOutOfK } from '../src/index.js';
import { fixedArbiter } from './helpers.js';
import { unitByUnit } from './unit-by-unit.js';

const n = 2;
const k = 2;
const h = [2, 2]; // h_1 + h_2 = 4 > k = 2

describe("the paper's two-process example (h_1 + h_2 > k)", () => {
  it('h units one at a time through a k-mutex deadlocks: each holds one unit and waits for the other', async () => {
    // the k-mutex: the k-arbiter algorithm over n·k = 4 unit slots, every request for 1 unit
    const kmutex = hOutOfK({ k, arbiter: asHKArbiter(uniformKArbiter(n * k, k)) });
    const cluster = createCluster({ factory: unitByUnit(k, kmutex), spec: hOutOfKSpec(k, n), seed: 1 });
    const r = await runWorkload(cluster, { rounds: 1, think: 0, request: (_rng, i) => h[i]! });
    expect(r.ok).toBe(false);
    expect(r.violation).toBeNull();
    expect(r.failure).toMatch(/network went quiet: deadlock or starvation/);
    expect(r.stuck.map((s) => [s.process, s.state, s.pending])).toEqual([
      [0, 'OutCS', 'entry'],
      [1, 'OutCS', 'entry'],
    ]);
    expect(cluster.net.inFlight).toBe(0); // h_1' = h_2' = 1, h_1' + h_2' = k: nobody can move
  });

  it('hOutOfK takes the h units at once and completes the same workload (and 50 more seeds)', async () => {
    // uniformHKArbiter needs k < n; with n = k = 2 every quorum is {P0, P1} (checked by fromHKQuorums)
    const arbiter = fixedArbiter(n, k, [0, 1]);
    for (let seed = 1; seed <= 51; seed++) {
      const cluster = createCluster({ factory: hOutOfK({ k, arbiter }), spec: hOutOfKSpec(k, n), seed });
      const r = await runWorkload(cluster, {
        rounds: seed === 1 ? 1 : 3,
        think: 0,
        request: (_rng, i) => h[i]!,
      });
      expect(r.ok, `seed ${seed}: ${r.failure}`).toBe(true);
    }
  });
});
