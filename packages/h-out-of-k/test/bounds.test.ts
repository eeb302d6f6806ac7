/**
 * Message counts against Sec. 4.3 (self-messages counted; a process is often in its own quorum):
 *
 * - no contention (the sequential workload, unit delays): exactly `3·|q|` per request — request
 *   and OK on entry (`2·|q|`), release on exit (`|q|`), q = `arbiter.quorumOf(i, h)`; entry waits
 *   2 time units, exit 0;
 * - contention (concurrent workload, think 0 and 0.5): every request, as Sec. 4.3 counts it
 *   (`paper-accounting.ts`: a cancel, its cancelled and the OK sent again after it are charged to
 *   the request that made the arbiter cancel), costs at most `(3h+3)·|q|`, q its quorum; the
 *   run's messages are at most `Σ (3h+3)·|q_{h,k}|` over its requests (the amortised bound; the
 *   causal attribution's per-pair figure is not bounded by it, `per-pair-causal.test.ts`, and is
 *   only printed).
 */
import { hOutOfKSpec } from '@critsec/core';
import { cubeHKArbiter, type HKArbiter, uniformHKArbiter, uniformKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { afterAll, describe, expect, it } from 'vitest';
import { asHKArbiter, compareArbiters, hOutOfK, hOutOfKBounds } from '../src/index.js';
import { randomH } from './helpers.js';
import { contendedCharges } from './paper-accounting.js';

const report: string[] = [];
afterAll(() => console.info(report.join('\n')));

const arbiters: [string, HKArbiter][] = [];
for (const k of [1, 2, 3, 4]) {
  arbiters.push([`uniform n=9 k=${k}`, uniformHKArbiter(9, k)]);
  arbiters.push([`cube n=${2 ** (k + 1)} k=${k}`, cubeHKArbiter(2 ** (k + 1), k)]);
}
arbiters.push(
  ['cube n=27 k=2', cubeHKArbiter(27, 2)],
  ['cube n=20 k=2 (tuples mod n)', cubeHKArbiter(20, 2)],
);

describe('no contention: exactly 3·|q| messages per request, entry waits 2, exit 0', () => {
  for (const [name, arbiter] of arbiters) {
    it(name, async () => {
      const { n, k } = arbiter;
      const cluster = createCluster({
        factory: hOutOfK({ k, arbiter }),
        spec: hOutOfKSpec(k, n),
        seed: n + k,
      });
      const r = await runWorkload(cluster, { kind: 'sequential', rounds: 2 * k, request: randomH(k) });
      expect(r.ok, r.failure ?? '').toBe(true);
      const seen = new Set<number>();
      for (const rec of r.records) {
        const h = rec.request as number;
        const entry = r.records.find(
          (e) => e.process === rec.process && e.round === rec.round && e.op === 'entry',
        )!;
        const q = arbiter.quorumOf(rec.process, entry.request as number).length;
        if (rec.op === 'entry') seen.add(h);
        expect(rec.messages, `P${rec.process} ${rec.op} h=${entry.request}`).toBe(
          rec.op === 'entry' ? 2 * q : q,
        );
      }
      expect(seen.size).toBeGreaterThan(k === 1 ? 0 : 1); // several h drawn
      expect(Object.keys(r.messages.byType).sort()).toEqual([' OK', ' release', ' request']);
      expect(r.waiting.entry).toMatchObject({ mean: 2, max: 2 });
      expect(r.waiting.exit).toMatchObject({ mean: 0, max: 0 });
      const rows = hOutOfKBounds(arbiter);
      report.push(
        `sequential ${name}: per request ${r.perPair.mean.toFixed(1)} (3|q_h| = ${rows.map((x) => x.messagesUncontended).join('/')} for h = 1..${k})`,
      );
    });
  }
});

describe('contention: each request ≤ (3h+3)·|q| as the paper counts; the run ≤ Σ (3h+3)·|q_{h,k}|', () => {
  const cases: [string, HKArbiter][] = [
    ['uniform n=5 k=2', uniformHKArbiter(5, 2)],
    ['uniform n=8 k=3', uniformHKArbiter(8, 3)],
    ['cube n=8 k=2', cubeHKArbiter(8, 2)],
    ['cube n=16 k=3', cubeHKArbiter(16, 3)],
    ['uniform n=9 k=4', uniformHKArbiter(9, 4)],
    ['uniform n=6 k=5', uniformHKArbiter(6, 5)],
  ];
  for (const [name, arbiter] of cases) {
    it(`${name}: 20 seeds, exponential and uniform delays, think 0 and 0.5`, async () => {
      let perRequest = 0;
      let perPairCausal = 0;
      let perQuorum = 0;
      let requests = 0;
      let cancels = 0;
      for (let seed = 1; seed <= 20; seed++) {
        const f = await contendedCharges(arbiter, seed, 3, (c, bound) =>
          expect(c.messages, `seed ${seed}, P${c.process} request ${c.seq}, h = ${c.h}`).toBeLessThanOrEqual(
            bound,
          ),
        );
        expect(f.ok, `seed ${seed}: ${f.failure}`).toBe(true);
        expect(f.total, `seed ${seed}: the run against Σ (3h+3)·|q_{h,k}|`).toBeLessThanOrEqual(f.budget);
        perRequest = Math.max(perRequest, f.perRequest);
        perPairCausal = Math.max(perPairCausal, f.perPairCausal);
        perQuorum += f.perQuorum;
        requests += f.requests;
        cancels += f.cancels;
      }
      expect(cancels).toBeGreaterThan(0); // the runs did reach the cancel rules
      if (name === 'uniform n=5 k=2') expect(perRequest).toBe(1); // the bound is tight
      report.push(
        `contention ${name}: per request (paper) mean ${(perQuorum / requests).toFixed(2)}·|q_{h,k}|, max ${(100 * perRequest).toFixed(0)}% of (3h+3)·|q_{h,k}|; per pair (causal) max ${(100 * perPairCausal).toFixed(0)}%; ${cancels} cancels`,
      );
    });
  }
});

describe('compareArbiters (the bench table)', () => {
  it("the (h,k)-arbiters' quorums are never larger than the k-arbiters' (Sec. 3), n = 27, 64, 125, 256", () => {
    for (const n of [27, 64, 125, 256]) {
      for (const k of [2, 3]) {
        const rows = compareArbiters(n, k);
        expect(rows).toHaveLength(k);
        for (const r of rows) {
          expect(r.uniform.quorum).toBeLessThanOrEqual(r.uniformK.quorum);
          expect(r.cube.quorum).toBeLessThanOrEqual(r.cubeK.quorum);
          expect(r.uniform.messages).toBe(3 * r.uniform.quorum);
        }
        expect(rows[0]!.uniform).toEqual(rows[0]!.uniformK); // Q_{1,k} is the k-arbiter
        expect(rows[k - 1]!.uniform.quorum).toBe(Math.floor(n / 2) + 1);
      }
    }
    expect(compareArbiters(64, 3)[2]).toMatchObject({
      cube: { quorum: 21, messages: 63 },
      cubeK: { quorum: 58 },
    });
  });
});

describe('hOutOfKBounds', () => {
  it('gives 3|q| and (3h+3)|q| per h, never larger than the k-arbiter (Sec. 3)', () => {
    for (const k of [1, 2, 3]) {
      const n = 27;
      const rows = hOutOfKBounds(uniformHKArbiter(n, k));
      const kRows = hOutOfKBounds(asHKArbiter(uniformKArbiter(n, k)));
      expect(rows.map((r) => r.h)).toEqual(Array.from({ length: k }, (_, t) => t + 1));
      for (const [t, row] of rows.entries()) {
        expect(row.quorumSize.max).toBe(Math.floor((k * n) / (k + row.h)) + 1);
        expect(row.messagesUncontended).toBe(3 * row.quorumSize.max);
        expect(row.messagesContended).toBe((3 * row.h + 3) * row.quorumSize.max);
        expect(row).toMatchObject({ waitingEntry: 2, waitingExit: 0 });
        expect(row.quorumSize.max).toBeLessThanOrEqual(kRows[t]!.quorumSize.max);
      }
      expect(rows[k - 1]!.quorumSize.max).toBe(Math.floor(n / 2) + 1); // Q_{k,k}: the majority
    }
  });
});
