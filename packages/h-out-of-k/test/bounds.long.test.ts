/**
 * The contention bound of Sec. 4.3 over more seeds (`npm run test:long`): every request costs at
 * most `(3h+3)·|q|` messages as the paper counts them (`paper-accounting.ts`), and each run's
 * messages at most `Σ (3h+3)·|q_{h,k}|` over its requests; 120 seeds per arbiter, exponential and
 * uniform delays, full (think 0) and partial contention. Mean and max printed, max asserted.
 */
import { cubeHKArbiter, type HKArbiter, uniformHKArbiter } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { contendedCharges } from './paper-accounting.js';

const cases: HKArbiter[] = [
  uniformHKArbiter(5, 2),
  cubeHKArbiter(8, 2),
  uniformHKArbiter(8, 3),
  cubeHKArbiter(16, 3),
  uniformHKArbiter(9, 4),
  uniformHKArbiter(6, 5),
];

describe('contention bound, long', () => {
  it('every request ≤ (3h+3)·|q| (paper accounting), every run ≤ Σ (3h+3)·|q_{h,k}|, over 720 runs', async () => {
    const lines: string[] = [];
    let total = 0;
    for (const arbiter of cases) {
      let perRequest = 0;
      let perPairCausal = 0;
      let perQuorum = 0;
      let requests = 0;
      for (let seed = 1; seed <= 120; seed++) {
        const f = await contendedCharges(arbiter, seed, 4, (c, bound) =>
          expect(
            c.messages,
            `${arbiter.description}, seed ${seed}, P${c.process} request ${c.seq}`,
          ).toBeLessThanOrEqual(bound),
        );
        expect(f.ok, `${arbiter.description}, seed ${seed}: ${f.failure}`).toBe(true);
        expect(f.total, `${arbiter.description}, seed ${seed}`).toBeLessThanOrEqual(f.budget);
        perRequest = Math.max(perRequest, f.perRequest);
        perPairCausal = Math.max(perPairCausal, f.perPairCausal);
        perQuorum += f.perQuorum;
        requests += f.requests;
        total++;
      }
      lines.push(
        `  ${arbiter.description}: ${requests} requests, mean ${(perQuorum / requests).toFixed(2)}·|q_{h,k}|, max ${(100 * perRequest).toFixed(0)}% of (3h+3)·|q_{h,k}| (per pair, causal: max ${(100 * perPairCausal).toFixed(0)}%)`,
      );
    }
    console.info(`contention bound, ${total} runs:\n${lines.join('\n')}`);
    expect(total).toBe(720);
  });
});
