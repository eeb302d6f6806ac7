/**
 * The paper's bounds, measured exactly (global-CS paper, Lemmas 3–4) under unit delays and no
 * contention: the sequential workload makes one invocation at a time, chosen among the moves the
 * (l,n) condition already allows, and lets the network go quiet in between.
 */
import { type CSState, globalSpec } from '@critsec/core';
import { type Coterie, grid, majority, projectivePlane } from '@critsec/coteries';
import { ricartAgrawala } from '@critsec/mutex';
import { createCluster } from '@critsec/harness';
import { centralMutex, channelTotal, sequentialPairs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { mutin } from '../src/index.js';

const MUTIN_TYPES = ['Query', 'Response1', 'Acquire', 'Ack', 'Release', 'Response2'] as const;

interface Case {
  readonly name: string;
  readonly coterie: Coterie;
  readonly l: number;
  readonly initial?: readonly CSState[];
}

const cases: Case[] = [
  { name: 'majority n=3 l=1', coterie: majority(3), l: 1 },
  { name: 'majority n=5 l=2', coterie: majority(5), l: 2 },
  { name: 'majority n=6 l=0', coterie: majority(6), l: 0 },
  { name: 'grid n=9 l=3', coterie: grid(9), l: 3 },
  { name: 'grid n=16 l=15', coterie: grid(16), l: 15 },
  { name: 'grid n=12 l=4', coterie: grid(12), l: 4 },
  { name: 'projective plane q=3 (n=13) l=6', coterie: projectivePlane(3), l: 6 },
];

describe('MUTIN(l) bounds under unit delays and no contention (Lemmas 3–4)', () => {
  for (const c of cases) {
    it(`${c.name}: exit ≤ 7, entry ≤ 2, per pair = mx + 5|Q_i| (≤ mx + 4|Q|+|Q|+|Q|)`, async () => {
      const n = c.coterie.n;
      const cluster = createCluster({
        factory: mutin({ l: c.l, coterie: c.coterie }),
        spec: globalSpec(c.l, n, n),
        seed: 3,
      });
      const { result, pairs } = await sequentialPairs(cluster, 2);
      expect(result.ok, result.failure ?? '').toBe(true);
      expect(result.waiting.exit.max).toBeLessThanOrEqual(7);
      expect(result.waiting.entry.max).toBeLessThanOrEqual(2);
      // measured: the chain mx.Entry (2) + Query/Response1 (2) + Acquire/Ack (2); Entry never waits
      expect(result.waiting.exit.max).toBe(6);
      expect(result.waiting.entry.max).toBe(0);
      expect(pairs.length).toBe(2 * n);
      for (const p of pairs) {
        const q = c.coterie.quorumOf(p.process).length;
        const own = channelTotal(p, '');
        const mx = channelTotal(p, 'mx');
        expect(own + mx).toBe(p.total);
        expect(own).toBeLessThanOrEqual(4 * q + q + q); // Lemma 3
        for (const t of MUTIN_TYPES) expect(p.byType[` ${t}`] ?? 0).toBe(t === 'Response2' ? 0 : q);
        expect(mx).toBe(3 * q); // Maekawa without contention: REQUEST, GRANT, RELEASE to Q_i
      }
    });
  }

  it('the bound holds with any mx: Ricart–Agrawala (2(n−1) per CS) and a central coordinator (3)', async () => {
    for (const [mx, perCS] of [
      [ricartAgrawala(), (n: number) => 2 * (n - 1)],
      [centralMutex(), () => 3],
    ] as const) {
      const coterie = grid(9);
      const cluster = createCluster({
        factory: mutin({ l: 2, coterie, mx }),
        spec: globalSpec(2, 9, 9),
        seed: 5,
      });
      const { result, pairs } = await sequentialPairs(cluster, 2);
      expect(result.ok, result.failure ?? '').toBe(true);
      expect(result.waiting.exit.max).toBeLessThanOrEqual(7);
      expect(result.waiting.entry.max).toBeLessThanOrEqual(2);
      for (const p of pairs) {
        const q = coterie.quorumOf(p.process).length;
        expect(channelTotal(p, '')).toBe(5 * q);
        expect(channelTotal(p, 'mx')).toBe(perCS(9));
      }
    }
  });

  it('grid n = 16, 64, 256: messages per pair grow like |Q| = 2√n − 1 (messages/|Q| flat at 8)', async () => {
    const ratios: number[] = [];
    for (const n of [16, 64, 256]) {
      const coterie = grid(n);
      const q = 2 * Math.sqrt(n) - 1;
      const cluster = createCluster({
        factory: mutin({ l: Math.floor(n / 4), coterie }),
        spec: globalSpec(Math.floor(n / 4), n, n),
      });
      const { result, pairs } = await sequentialPairs(cluster, 1);
      expect(result.ok, result.failure ?? '').toBe(true);
      const totals = pairs.map((p) => p.total);
      const mean = totals.reduce((a, b) => a + b, 0) / totals.length;
      const max = Math.max(...totals);
      expect(max).toBeLessThanOrEqual(3 * q + 6 * q); // Maekawa 3|Q| + Lemma 3's 6|Q|
      ratios.push(mean / q);
    }
    expect(Math.max(...ratios) - Math.min(...ratios)).toBe(0);
    expect(ratios[0]).toBe(8);
  });
});
