/**
 * `test/worst-case.test.ts` with larger budgets (`npm run test:long`): surficial(9, 2) (c = 3,
 * max[g] = 3), everyone contending over delivery orders, groups picked by the schedule —
 * Maekawa_M's pairs ≤ 3c + 3c·max[g] = 36 (Theorem 5), Maekawa_S's mean ≤ 2c + 1 = 7 (Theorem 9)
 * and its largest single pair (causal attribution); the delays with P4 alone (M: 2, S: c + 1 = 4).
 * Printed and recorded in the README.
 */
import { groupSpec } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { type ScheduleSetup, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';

const system = surficial(9, 2);
const setupOf = (variant: 'M' | 'S'): ScheduleSetup<number> => ({
  cluster: { factory: groupMutex({ system, variant }), spec: groupSpec(2, 9) },
  requests: [0, 1],
});

describe('worst schedule found, long', () => {
  it('Maekawa_M: no pair above 36, 200,000 steps', async () => {
    const r = await searchWorstSchedule({ ...setupOf('M'), measure: 'messagesPerPair', maxSteps: 200_000 });
    expect(r.failure).toBeNull();
    expect(r.value).toBeLessThanOrEqual(36);
    console.info(`Maekawa_M surficial(9,2): worst pair ${r.value}; replay ${r.replay}`);
  });

  it('Maekawa_S: mean ≤ 7, and the largest single pair, 200,000 steps each', async () => {
    const mean = await searchWorstSchedule({
      ...setupOf('S'),
      measure: 'meanMessagesPerPair',
      maxSteps: 200_000,
    });
    const max = await searchWorstSchedule({ ...setupOf('S'), measure: 'messagesPerPair', maxSteps: 200_000 });
    expect([mean.failure, max.failure]).toEqual([null, null]);
    expect(mean.value).toBeLessThanOrEqual(7);
    console.info(
      `Maekawa_S surficial(9,2): worst mean ${mean.value}, worst pair ${max.value}; replay ${max.replay}`,
    );
  });

  it('delays, P4 alone: Maekawa_M ≤ 2, Maekawa_S ≤ 4, 50,000 steps each', async () => {
    const found: number[] = [];
    for (const variant of ['M', 'S'] as const) {
      const alone = { ...setupOf(variant), space: 'timing', active: [4], rounds: 4 } as const;
      found.push((await searchWorstSchedule({ ...alone, measure: 'entryWaiting', maxSteps: 50_000 })).value);
    }
    expect(found).toEqual([2, 4]);
  });
});
