/**
 * Message counts and synchronization delays against the paper (exact counts, unit delays):
 *
 * - No contention (the sequential workload: one invocation in the whole cluster at a time, the
 *   network quiet in between): Maekawa_M's entry costs exactly 2|Q| (REQUEST, LOCKED) and its
 *   exit |Q| (UNLOCK) — 3c, the first term of Theorem 5 — and the entry waits exactly 2 time
 *   units (Theorem 6). Maekawa_S's entry costs exactly |Q| + 1 (|Q| REQUEST hops, GRANT) and its
 *   exit |Q| (UNLOCK) — 2c + 1 — and the entry waits exactly |Q| + 1 (Theorem 9).
 * - Contention (every process requesting a random group, think 0 and 0.5, hold 0.5): no
 *   entry+exit pair of Maekawa_M exceeds c·(2 + 6·max[g]) under the causal attribution, with the
 *   default max[g] and with 1, 2, 3 (Theorem 5's 3c + 3c·max[g] is exceeded, counted and printed;
 *   `cost-counterexamples.test.ts`); every Maekawa_S request costs 2|Q| + 1 plus one self-addressed
 *   REQUEST per node where it arrived early (E.17–E.19), at most 3|Q| (the README's proofs).
 */
import { groupSpec } from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { exitEntryPairs } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { groupMutex, groupMutexBounds } from '../src/index.js';
import { runM, runS } from './costs.js';
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

describe('contention (concurrent workload, think 0 and 0.5)', () => {
  for (const [label, system] of systems()) {
    it(`${label}: every Maekawa_M pair ≤ c·(2 + 6·max[g]) (max[g] default, 1, 2, 3); every Maekawa_S request 2|Q| + 1 + its early re-sends ≤ 3|Q|`, async () => {
      // Maekawa_M: each message charged to the invocation whose message chain caused it
      const line: string[] = [];
      for (const maxLocks of [undefined, 1, 2, 3]) {
        const b = groupMutexBounds({ system, variant: 'M', ...(maxLocks === undefined ? {} : { maxLocks }) });
        let max = 0;
        let beyondTheorem5 = 0;
        for (let seed = 1; seed <= 6; seed++) {
          const r = await runM(system, seed, seed % 4 < 2 ? 0 : 0.5, maxLocks);
          expect(r.ok, `max[g] ${maxLocks}, seed ${seed}: ${r.failure ?? ''}`).toBe(true);
          for (const p of exitEntryPairs(r.records)) {
            const m = p.entry.messages + p.exit.messages;
            expect(m, `max[g] ${maxLocks}, seed ${seed}, P${p.process}`).toBeLessThanOrEqual(b.worstPerPair!);
            if (m > b.worstPerEntry) beyondTheorem5++;
            max = Math.max(max, m);
          }
        }
        line.push(
          `max[g] ${maxLocks ?? 'default'}: ${max} ≤ ${b.worstPerPair} (${beyondTheorem5} pairs > ${b.worstPerEntry})`,
        );
      }
      // Maekawa_S: driven to rest, the messages naming each request
      const boundS = groupMutexBounds({ system, variant: 'S' });
      let requests = 0;
      let early = 0;
      for (let seed = 1; seed <= 8; seed++) {
        const s = await runS(system, seed, seed % 4 < 2 ? 0 : 0.5);
        expect(s.result.ok, `seed ${seed}: ${s.result.failure ?? ''}`).toBe(true);
        let extra = 0;
        for (const r of s.requests) {
          expect(r.messages, `seed ${seed}, P${r.p} request ${r.sn}`).toBeGreaterThanOrEqual(2 * r.q + 1);
          expect(r.messages, `seed ${seed}, P${r.p} request ${r.sn}`).toBeLessThanOrEqual(3 * r.q);
          expect(r.messages).toBeLessThanOrEqual(boundS.worstPerEntry);
          extra += r.messages - (2 * r.q + 1);
        }
        expect(extra, `seed ${seed}: one self-addressed REQUEST per early request`).toBe(s.early);
        expect(s.sent).toBe(s.requests.reduce((a, r) => a + r.messages, 0));
        requests += s.requests.length;
        early += s.early;
      }
      report.push(
        `contention, ${label}: Maekawa_M per pair ${line.join(', ')}; Maekawa_S ${requests} requests, ${early} early (2|Q| + 2 each)`,
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
      worstPerPair: 3 * (2 + 6 * 3),
      syncDelay: 2,
    });
    expect(groupMutexBounds({ system: surf, variant: 'S' })).toMatchObject({
      uncontended: { min: 7, max: 7 },
      worstPerEntry: 9, // 2c + 1 + (c − 1) early re-sends
      worstPerPair: undefined,
      syncDelay: 4,
    });
    expect(groupMutexBounds({ system: tm, variant: 'M' })).toMatchObject({
      c: 5,
      degree: 1,
      maxLocks: [9, 9],
      worstPerEntry: 3 * 5 + 3 * 5 * 9, // eq. (2): 3c + 3c·n
      worstPerPair: 5 * (2 + 6 * 9), // 280
    });
    expect(groupMutexBounds({ system: tm, variant: 'M', maxLocks: 1 })).toMatchObject({
      worstPerEntry: 30,
      worstPerPair: 40,
    });
    expect(() => groupMutexBounds({ system: tm, variant: 'M', maxLocks: 0 })).toThrow(/maxLocks/);
  });
});
