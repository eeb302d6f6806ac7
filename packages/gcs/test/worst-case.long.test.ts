/**
 * `test/worst-case.test.ts` with larger budgets (`npm run test:long`): Theorem 4's waiting times
 * (≤ 9) with P2 alone on grid(9), (2,5)-GCS, delays picked in {1, 0.5, 0.25}; messages per pair
 * with everyone contending over delivery orders, (1,2)-GCS over majority(3) — two MUTIN layers of
 * ≤ 12·|Q| each on average. Printed and recorded in the README.
 */
import { globalSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { type ScheduleSetup, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { gcs } from '../src/index.js';

describe('worst schedule found, long', () => {
  it('(2,5)-GCS grid(9), P2 alone: entry and exit ≤ 9, 50,000 steps each', async () => {
    const alone: ScheduleSetup = {
      cluster: { factory: gcs({ l: 2, k: 5, coterie: grid(9) }), spec: globalSpec(2, 5, 9) },
      space: 'timing',
      active: [2],
      rounds: 3,
    };
    const exit = await searchWorstSchedule({ ...alone, measure: 'exitWaiting', maxSteps: 50_000 });
    const entry = await searchWorstSchedule({ ...alone, measure: 'entryWaiting', maxSteps: 50_000 });
    expect(Math.max(exit.value, entry.value)).toBeLessThanOrEqual(9);
    console.info(`(2,5)-GCS grid(9) alone: worst exit ${exit.value}, entry ${entry.value}`);
  });

  it('(1,2)-GCS majority(3), all contending: mean per pair ≤ 24·|Q| = 48, 200,000 steps each', async () => {
    const setup: ScheduleSetup = {
      cluster: { factory: gcs({ l: 1, k: 2, coterie: majority(3) }), spec: globalSpec(1, 2, 3) },
    };
    const mean = await searchWorstSchedule({ ...setup, measure: 'meanMessagesPerPair', maxSteps: 200_000 });
    const max = await searchWorstSchedule({ ...setup, measure: 'messagesPerPair', maxSteps: 200_000 });
    expect([mean.failure, max.failure]).toEqual([null, null]);
    expect(mean.value).toBeLessThanOrEqual(48);
    console.info(
      `(1,2)-GCS majority(3): worst mean ${mean.value.toFixed(2)}, worst pair ${max.value}; replay ${max.replay}`,
    );
  });
});
