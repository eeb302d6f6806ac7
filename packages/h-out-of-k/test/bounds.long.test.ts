/**
 * The contention bound of Sec. 4.3 over more seeds (`npm run test:long`): every exit+entry pair
 * costs at most `(3h+3)·|q_{h,k}|` messages (causal attribution), 120 seeds per arbiter, exponential
 * and uniform delays, full (think 0) and partial contention. Mean and max printed, max asserted.
 */
import { cubeHKArbiter, type HKArbiter, uniformHKArbiter } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { hOutOfKBounds } from '../src/index.js';
import { contendedRun, pairs } from './helpers.js';

const cases: HKArbiter[] = [
  uniformHKArbiter(5, 2),
  cubeHKArbiter(8, 2),
  uniformHKArbiter(8, 3),
  cubeHKArbiter(16, 3),
  uniformHKArbiter(9, 4),
];

describe('contention bound, long', () => {
  it('every pair ≤ (3h+3)·|q_{h,k}| over 600 runs', async () => {
    const lines: string[] = [];
    let total = 0;
    for (const arbiter of cases) {
      const bound = hOutOfKBounds(arbiter);
      let max = 0;
      let sum = 0;
      let count = 0;
      for (let seed = 1; seed <= 120; seed++) {
        const r = await contendedRun(arbiter, seed, 4);
        expect(r.ok, `${arbiter.description}, seed ${seed}: ${r.failure}`).toBe(true);
        for (const [h, m] of pairs(r.records)) {
          const b = bound[h - 1]!;
          expect(m, `${arbiter.description}, seed ${seed}, h = ${h}`).toBeLessThanOrEqual(
            b.messagesContended,
          );
          max = Math.max(max, m / b.messagesContended);
          sum += m / b.quorumSize.max;
          count++;
        }
        total++;
      }
      lines.push(
        `  ${arbiter.description}: ${count} pairs, mean ${(sum / count).toFixed(2)}·|q_{h,k}|, max ${(100 * max).toFixed(0)}% of (3h+3)·|q_{h,k}|`,
      );
    }
    console.info(`contention bound, ${total} runs:\n${lines.join('\n')}`);
    expect(total).toBe(600);
  });
});
