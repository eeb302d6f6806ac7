/**
 * `test/worst-case.test.ts` with larger budgets (`npm run test:long`): the largest excess of a
 * pair over its own `(3h+3)·|q_{h,k}|` (Sec. 4.3), everyone contending over delivery orders, h
 * picked by the schedule per entry. On uniformHKArbiter(6, 5) the climb finds an h = 1 pair above
 * 36 that random sampling with the same budget does not find; on uniformHKArbiter(8, 3) it finds a
 * pair 2 above its bound; uniform(5, 2) and cube(8, 2) stay within.
 * Printed and recorded in the README.
 */
import { cubeHKArbiter, uniformHKArbiter } from '@critsec/coteries';
import { describeWorstCase, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { hOutOfKBounds } from '../src/index.js';
import { contended, excess } from './helpers.js';

describe('worst schedule found, long', () => {
  it('uniform n=6 k=5, 300,000 steps: the climb (seed 2) finds an h = 1 pair above 36, random sampling (seeds 1–3) does not', async () => {
    const arbiter = uniformHKArbiter(6, 5);
    const setup = contended(arbiter);
    const measure = excess(arbiter);
    const climb = await searchWorstSchedule({ ...setup, measure, maxSteps: 300_000, seed: 2 });
    console.info(describeWorstCase(climb, measure));
    expect(climb.value).toBe(3);
    expect(climb.run.pairs.find((p) => p.process === 3)).toMatchObject({ request: 1, messages: 39 });
    for (const seed of [1, 2, 3]) {
      const random = await searchWorstSchedule({
        ...setup,
        measure,
        maxSteps: 300_000,
        seed,
        strategy: 'random',
      });
      expect(random.value, `random, seed ${seed}`).toBeLessThan(0);
    }
  });

  for (const arbiter of [uniformHKArbiter(5, 2), cubeHKArbiter(8, 2)]) {
    it(`${arbiter.description}: no pair above its bound, 200,000 steps`, async () => {
      const r = await searchWorstSchedule({
        ...contended(arbiter, 2),
        measure: excess(arbiter),
        maxSteps: 200_000,
      });
      expect(r.failure).toBeNull();
      expect(r.value).toBeLessThanOrEqual(0);
      console.info(`${arbiter.description}: worst excess ${r.value} (${r.runs} runs); replay ${r.replay}`);
    });
  }

  it('uniform n=8 k=3, 2 rounds, 200,000 steps: a pair 2 messages above its bound (a second counterexample)', async () => {
    const arbiter = uniformHKArbiter(8, 3);
    const measure = excess(arbiter);
    const r = await searchWorstSchedule({ ...contended(arbiter, 2), measure, maxSteps: 200_000 });
    expect(r.failure).toBeNull();
    expect(r.value).toBe(2);
    const bound = hOutOfKBounds(arbiter).map((b) => b.messagesContended);
    const over = r.run.pairs.filter((p) => p.messages > bound[(p.request as number) - 1]!);
    console.info(`${arbiter.description}: pairs above the bound ${JSON.stringify(over)} (${r.runs} runs)`);
    console.info(describeWorstCase(r, measure));
  });
});
