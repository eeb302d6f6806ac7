/**
 * `test/worst-case.test.ts` with larger budgets (`npm run test:long`): Lemma 4's waiting times
 * with P3 alone on grid(9), l = 3 (delays picked in {1, 0.5, 0.25}), and Lemma 3's messages per
 * pair (MUTIN's own ≤ 6·|Q| plus Maekawa's ≤ 6·|Q| on average) with everyone contending over
 * delivery orders, majority(3) l = 1 and grid(9) l = 3. Printed and recorded in the README.
 */
import { globalSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { type ScheduleSetup, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { mutin } from '../src/index.js';

describe('worst schedule found, long', () => {
  it('P3 alone, grid(9) l = 3: Exit() ≤ 7, Entry() ≤ 2, 50,000 steps each', async () => {
    const alone: ScheduleSetup = {
      cluster: { factory: mutin({ l: 3, coterie: grid(9) }), spec: globalSpec(3, 9, 9) },
      space: 'timing',
      active: [3],
      rounds: 3,
    };
    const exit = await searchWorstSchedule({ ...alone, measure: 'exitWaiting', maxSteps: 50_000 });
    const entry = await searchWorstSchedule({ ...alone, measure: 'entryWaiting', maxSteps: 50_000 });
    expect(exit.value).toBeLessThanOrEqual(7);
    expect(entry.value).toBeLessThanOrEqual(2);
    console.info(`MUTIN grid(9) l=3 alone: worst exit ${exit.value}, entry ${entry.value}`);
  });

  for (const [name, coterie, l, q] of [
    ['majority(3) l=1', majority(3), 1, 2],
    ['grid(9) l=3', grid(9), 3, 5],
  ] as const) {
    it(`${name}, all contending: mean per pair ≤ 12·|Q| = ${12 * q}, 200,000 steps each`, async () => {
      const n = coterie.n;
      const setup: ScheduleSetup = { cluster: { factory: mutin({ l, coterie }), spec: globalSpec(l, n, n) } };
      const mean = await searchWorstSchedule({ ...setup, measure: 'meanMessagesPerPair', maxSteps: 200_000 });
      const max = await searchWorstSchedule({ ...setup, measure: 'messagesPerPair', maxSteps: 200_000 });
      expect([mean.failure, max.failure]).toEqual([null, null]);
      expect(mean.value).toBeLessThanOrEqual(12 * q);
      console.info(
        `MUTIN ${name}: worst mean ${mean.value.toFixed(2)}, worst pair ${max.value} = ${(max.value / q).toFixed(2)}·|Q|; replay ${max.replay}`,
      );
    });
  }
});
