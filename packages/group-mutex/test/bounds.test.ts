/**
 * Message counts and synchronization delays against the paper (exact counts, unit delays):
 *
 * - No contention (the sequential workload: one invocation in the whole cluster at a time, the
 *   network quiet in between): Maekawa_M's entry costs exactly 2|Q| (REQUEST, LOCKED) and its
 *   exit |Q| (UNLOCK) — 3c, the first term of Theorem 5 — and the entry waits exactly 2 time
 *   units (Theorem 6). Maekawa_S's entry costs exactly |Q| + 1 (|Q| REQUEST hops, GRANT) and its
 *   exit |Q| (UNLOCK) — 2c + 1 — and the entry waits exactly |Q| + 1 (Theorem 9).
 * - Contention (every process requesting a random group, think = hold = 0 … 1, causal
 *   attribution of every message to the invocation that caused it): no entry+exit pair of
 *   Maekawa_M exceeds 3c + 3c·max[g] (Theorem 5); Maekawa_S's pairs stay at 2c + 1 (the
 *   algorithm has no other messages; only abort adds UNLOCKs).
 */
import { groupSpec } from '@critsec/core';
import { createCluster, drainToRest, runWorkload } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { groupMutex, groupMutexBounds } from '../src/index.js';
import { anyGroup, quorumSize, systems } from './helpers.js';

const report: string[] = [];
afterAll(() => console.info(report.join('\n')));

describe('no contention (sequential workload, unit delays)', () => {
  for (const [label, system] of systems()) {
    it(`${label}: Maekawa_M 3|Q| per pair, entry waits 2; Maekawa_S 2|Q| + 1, entry waits |Q| + 1`, async () => {
      const line: string[] = [];
      for (const variant of ['M', 'S'] as const) {
        const options = { system, variant } as const;
        const bounds = groupMutexBounds(options);
        const sizeOf = quorumSize(system);
        const cluster = createCluster({
          factory: groupMutex(options),
          spec: groupSpec(system.m, system.n),
          seed: 7,
        });
        const r = await runWorkload(cluster, { kind: 'sequential', rounds: 2, request: anyGroup(system.m) });
        expect(r.ok, r.failure ?? '').toBe(true);
        const lastGroup = new Array<number>(system.n).fill(0);
        for (const rec of r.records) {
          if (rec.op === 'entry') lastGroup[rec.process] = rec.request as number;
          const q = sizeOf(rec.process, lastGroup[rec.process]!);
          const expected =
            variant === 'M' ? (rec.op === 'entry' ? 2 * q : q) : rec.op === 'entry' ? q + 1 : q;
          expect(rec.messages, `${variant} P${rec.process} ${rec.op}`).toBe(expected);
          if (rec.op === 'entry') expect(rec.end - rec.start).toBe(variant === 'M' ? 2 : q + 1);
        }
        expect(r.perPair.max).toBeLessThanOrEqual(bounds.uncontended.max);
        expect(r.waiting.entry.max).toBe(bounds.syncDelay);
        line.push(
          `${variant}: ${r.perPair.mean.toFixed(2)} msgs/pair (c = ${bounds.c}), entry wait max ${r.waiting.entry.max}`,
        );
      }
      report.push(`no contention, ${label}: ${line.join('; ')}`);
    });
  }
});

describe('contention (concurrent workload)', () => {
  for (const [label, system] of systems()) {
    it(`${label}: no Maekawa_M pair exceeds 3c + 3c·max[g]; Maekawa_S sends exactly 2|Q| + 1 per entry–exit`, async () => {
      const sizeOf = quorumSize(system);
      const spec = groupSpec(system.m, system.n);
      const workload = { rounds: 3, think: 0.5, hold: 0.5, request: anyGroup(system.m) };
      // Maekawa_M: each message charged to the invocation whose message chain caused it
      const boundM = groupMutexBounds({ system, variant: 'M' });
      let maxM = 0;
      for (let seed = 1; seed <= 8; seed++) {
        const cluster = createCluster({
          factory: groupMutex({ system, variant: 'M' }),
          spec,
          seed,
          attribution: true,
        });
        const r = await runWorkload(cluster, workload);
        expect(r.ok, `seed ${seed}: ${r.failure ?? ''}`).toBe(true);
        maxM = Math.max(maxM, r.perPair.max);
      }
      expect(maxM).toBeLessThanOrEqual(boundM.worstPerEntry);
      // Maekawa_S: driven to rest, REQUEST = Σ|Q|, GRANT = #entries, UNLOCK = Σ|Q| (attribution
      // would charge a forwarded REQUEST to the exit that released the node, so count by type)
      let pairs = 0;
      for (let seed = 1; seed <= 8; seed++) {
        const cluster = createCluster({ factory: groupMutex({ system, variant: 'S' }), spec, seed });
        const sizes: number[] = [];
        for (const cs of cluster.objects) {
          let g = -1;
          const entry = cs.entry.bind(cs);
          cs.entry = ((group: number, opts?: { signal?: AbortSignal }) => {
            g = group;
            sizes.push(sizeOf(cs.id, g));
            return entry(group, opts);
          }) as typeof cs.entry;
        }
        const r = await runWorkload(cluster, workload);
        expect(r.ok, `seed ${seed}: ${r.failure ?? ''}`).toBe(true);
        await drainToRest(cluster);
        const byType = cluster.net.counters().byType;
        const sum = sizes.reduce((a, b) => a + b, 0);
        expect(byType, `seed ${seed}`).toEqual({ ' REQUEST': sum, ' GRANT': sizes.length, ' UNLOCK': sum });
        pairs += sizes.length;
      }
      report.push(
        `contention, ${label}: Maekawa_M max ${maxM} msgs/pair (bound 3c + 3c·max[g] = ${boundM.worstPerEntry}); Maekawa_S exactly 2|Q| + 1 over ${pairs} entries`,
      );
    });
  }
});

describe('groupMutexBounds: the paper’s figures for a configuration', () => {
  it('surficial(9, 2) and T_2(grid(9)) (the Sec. 4.4 comparison, first rows of the bench table)', () => {
    const [surf, tm] = [systems()[1]![1], systems()[5]![1]];
    expect(groupMutexBounds({ system: surf, variant: 'M' })).toMatchObject({
      c: 3,
      cMin: 3,
      degree: 3,
      maxLocks: [3, 3],
      uncontended: { min: 9, max: 9 },
      worstPerEntry: 3 * 3 + 3 * 3 * 3, // eq. (1): 3c + 3c·n/deg
      syncDelay: 2,
    });
    expect(groupMutexBounds({ system: surf, variant: 'S' })).toMatchObject({
      uncontended: { min: 7, max: 7 },
      worstPerEntry: 7,
      syncDelay: 4,
    });
    expect(groupMutexBounds({ system: tm, variant: 'M' })).toMatchObject({
      c: 5,
      degree: 1,
      maxLocks: [9, 9],
      worstPerEntry: 3 * 5 + 3 * 5 * 9, // eq. (2): 3c + 3c·n
    });
    expect(groupMutexBounds({ system: tm, variant: 'M', maxLocks: 1 }).worstPerEntry).toBe(30);
    expect(() => groupMutexBounds({ system: tm, variant: 'M', maxLocks: 0 })).toThrow(/maxLocks/);
  });
});
