/**
 * `test/worst-case.test.ts` with larger budgets (`npm run test:long`): the worst schedules found
 * by the search of `@critsec/testing` against the README's message figures — Maekawa's mean per CS
 * ≤ 6·|Q| on grid(4) (|Q| = 3) and grid(9) (|Q| = 5), Ricart–Agrawala's exactly 2(n − 1) — over
 * delivery orders in controlled mode, every process contending, two rounds each. Printed and
 * recorded in the README ("Worst schedule found by the search").
 */
import { mutexSpec } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { measureRun, type ScheduleSetup, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { maekawa, ricartAgrawala } from '../src/index.js';

const maekawaOn = (n: number): ScheduleSetup => ({
  cluster: { factory: maekawa({ coterie: grid(n) }), spec: mutexSpec(n) },
  rounds: 2,
});

describe('worst schedule found, long', () => {
  for (const [n, q] of [
    [4, 3],
    [9, 5],
  ] as const) {
    it(`Maekawa grid(${n}): mean per CS ≤ 6·|Q| = ${6 * q}, 200,000 steps each`, async () => {
      const setup = maekawaOn(n);
      const mean = await searchWorstSchedule({ ...setup, measure: 'meanMessagesPerPair', maxSteps: 200_000 });
      const max = await searchWorstSchedule({ ...setup, measure: 'messagesPerPair', maxSteps: 200_000 });
      expect([mean.failure, max.failure]).toEqual([null, null]);
      expect(mean.value).toBeLessThanOrEqual(6 * q);
      console.info(
        `Maekawa grid(${n}): worst mean ${mean.value} (${mean.runs} runs), worst pair ${max.value} = ${(max.value / q).toFixed(2)}·|Q| (${max.runs} runs); replay ${max.replay}`,
      );
    });
  }

  it('Ricart–Agrawala n = 5: exactly 2(n − 1) = 8 per CS on average, 100,000 steps each way', async () => {
    const setup: ScheduleSetup = { cluster: { factory: ricartAgrawala(), spec: mutexSpec(5) }, rounds: 2 };
    const worst = await searchWorstSchedule({ ...setup, measure: 'meanMessagesPerPair', maxSteps: 100_000 });
    const best = await searchWorstSchedule({
      ...setup,
      measure: (run) => -measureRun('meanMessagesPerPair', run),
      maxSteps: 100_000,
    });
    expect([worst.value, -best.value]).toEqual([8, 8]);
    const pair = await searchWorstSchedule({ ...setup, measure: 'messagesPerPair', maxSteps: 100_000 });
    console.info(`Ricart–Agrawala n=5: mean 8 at the worst and best found; worst single pair ${pair.value}`);
  });
});
