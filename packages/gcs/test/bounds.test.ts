/**
 * Theorem 4's bounds for (l,k)-GCS, measured exactly under unit delays and no contention (the
 * sequential workload: one invocation at a time, chosen among the moves l ≤ #InCS ≤ k allows,
 * network quiet in between): waiting time ≤ 9 for exit and entry; messages per exit+entry pair
 * ≤ lmin's Lemma 3 bound + kmex's (each mx + 4|Q| + |Q| + |Q|), growing like |Q| = O(√n).
 */
import { globalSpec } from '@critsec/core';
import { type Coterie, grid, majority, projectivePlane } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { channelTotal, sequentialPairs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { gcs, kMutex } from '../src/index.js';

const cases: { coterie: Coterie; l: number; k: number }[] = [
  { coterie: majority(3), l: 1, k: 2 },
  { coterie: majority(5), l: 0, k: 5 },
  { coterie: majority(5), l: 2, k: 3 },
  { coterie: grid(9), l: 2, k: 5 },
  { coterie: grid(12), l: 2, k: 5 },
  { coterie: projectivePlane(3), l: 3, k: 4 },
];

describe('(l,k)-GCS bounds under unit delays and no contention (Theorem 4)', () => {
  for (const { coterie, l, k } of cases) {
    const n = coterie.n;
    it(`${coterie.kind} n=${n} (${l},${k}): exit ≤ 9, entry ≤ 9, per pair = lmin (mx + 5|Q_i|) + kmex (mx + 5|Q_i|)`, async () => {
      const cluster = createCluster({ factory: gcs({ l, k, coterie }), spec: globalSpec(l, k, n), seed: 7 });
      const { result, pairs } = await sequentialPairs(cluster, 2);
      expect(result.ok, result.failure ?? '').toBe(true);
      expect(result.waiting.exit.max).toBeLessThanOrEqual(9);
      expect(result.waiting.entry.max).toBeLessThanOrEqual(9);
      // measured: exit = lmin.Exit (6) + kmex.Exit = MUTIN(n−k).Entry (0); entry = kmex.Entry (6) + lmin.Entry (0)
      expect(result.waiting.exit.max).toBe(6);
      expect(result.waiting.entry.max).toBe(6);
      expect(pairs.length).toBe(2 * n);
      for (const p of pairs) {
        const q = coterie.quorumOf(p.process).length;
        const parts = {
          lmin: channelTotal(p, 'lmin'),
          lminMx: channelTotal(p, 'lmin/mx'),
          kmex: channelTotal(p, 'kmex'),
          kmexMx: channelTotal(p, 'kmex/mx'),
        };
        expect(parts.lmin + parts.lminMx + parts.kmex + parts.kmexMx).toBe(p.total);
        expect(parts.lmin).toBeLessThanOrEqual(6 * q); // Lemma 3 for lmin
        expect(parts.kmex).toBeLessThanOrEqual(6 * q); // Lemma 3 for kmex
        expect(parts).toEqual({ lmin: 5 * q, lminMx: 3 * q, kmex: 5 * q, kmexMx: 3 * q });
      }
    });
  }

  it('kMutex alone: entry ≤ 7 (MUTIN Exit), exit ≤ 2 (MUTIN Entry); mx + 5|Q_i| per pair', async () => {
    const coterie = grid(9);
    const cluster = createCluster({ factory: kMutex({ k: 3, coterie }), spec: globalSpec(0, 3, 9), seed: 2 });
    const { result, pairs } = await sequentialPairs(cluster, 2);
    expect(result.ok, result.failure ?? '').toBe(true);
    expect(result.waiting.entry.max).toBe(6);
    expect(result.waiting.exit.max).toBe(0);
    for (const p of pairs) expect(p.total).toBe(8 * coterie.quorumOf(p.process).length);
  });

  it('grid n = 16, 64, 256: messages per pair / |Q| is flat (16 = 2 × (3 + 5))', async () => {
    const ratios: number[] = [];
    for (const n of [16, 64, 256]) {
      const coterie = grid(n);
      const q = 2 * Math.sqrt(n) - 1;
      const [l, k] = [n / 8, n / 2];
      const cluster = createCluster({ factory: gcs({ l, k, coterie }), spec: globalSpec(l, k, n) });
      const { result, pairs } = await sequentialPairs(cluster, 1);
      expect(result.ok, result.failure ?? '').toBe(true);
      const totals = pairs.map((p) => p.total);
      const mean = totals.reduce((a, b) => a + b, 0) / totals.length;
      expect(Math.max(...totals)).toBeLessThanOrEqual(2 * (3 * q + 6 * q));
      ratios.push(mean / q);
    }
    expect(ratios).toEqual([16, 16, 16]);
  });
});
