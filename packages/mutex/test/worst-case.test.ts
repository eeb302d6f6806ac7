/**
 * The worst schedules the search of `@critsec/testing` finds against the README's message figures
 * (issue 26 §2), over delivery orders in controlled mode, every process contending, two rounds
 * each, messages charged causally to the call that caused them:
 *
 * - Maekawa over grid(4) (|Q| = 3): the mean per CS stays within 6·|Q| = 18 (the README's
 *   figure; single pairs may go above it, "up to ≈ 6.5·|Q|"); the largest single pair is recorded.
 * - Ricart–Agrawala, n = 4: exactly 2(n − 1) = 6 per CS on average in every complete schedule.
 *
 * Budgets are in steps (events delivered, all runs); `worst-case.long.test.ts` runs them larger.
 */
import { mutexSpec } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { measureRun, replaySchedule, type ScheduleSetup, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { maekawa, ricartAgrawala } from '../src/index.js';

const maekawaGrid4: ScheduleSetup = {
  cluster: { factory: maekawa({ coterie: grid(4) }), spec: mutexSpec(4) },
  rounds: 2,
};
const ra4: ScheduleSetup = { cluster: { factory: ricartAgrawala(), spec: mutexSpec(4) }, rounds: 2 };

describe('worst schedule found: Maekawa over grid(4), |Q| = 3', () => {
  it('mean per CS ≤ 6·|Q| = 18 at the worst schedule of 20,000 steps', async () => {
    const r = await searchWorstSchedule({
      ...maekawaGrid4,
      measure: 'meanMessagesPerPair',
      maxSteps: 20_000,
    });
    expect(r.failure).toBeNull();
    expect(r.value).toBeLessThanOrEqual(18);
    expect(r.value).toBe(12.5); // the README's figure; the uncontended cost is 3·|Q| = 9
    console.info(`Maekawa grid(4) worst mean per pair ${r.value} (${r.runs} runs, ${r.steps} steps)`);
  });

  it('the largest single pair, above the uncontended 3·|Q| = 9, replayed exactly', async () => {
    const r = await searchWorstSchedule({ ...maekawaGrid4, measure: 'messagesPerPair', maxSteps: 20_000 });
    expect(r.failure).toBeNull();
    expect(r.value).toBe(16); // the README's figure
    const again = await replaySchedule(maekawaGrid4, r.replay);
    expect(measureRun('messagesPerPair', again)).toBe(r.value);
    console.info(`Maekawa grid(4) worst pair ${r.value} (${r.runs} runs, ${r.steps} steps)`);
  });
});

describe('worst schedule found: Ricart–Agrawala, n = 4', () => {
  it('exactly 2(n − 1) = 6 per CS on average, at the worst and the best schedule found', async () => {
    const worst = await searchWorstSchedule({ ...ra4, measure: 'meanMessagesPerPair', maxSteps: 10_000 });
    const best = await searchWorstSchedule({
      ...ra4,
      measure: (run) => -measureRun('meanMessagesPerPair', run),
      maxSteps: 10_000,
    });
    expect([worst.failure, best.failure]).toEqual([null, null]);
    expect(worst.run.complete && best.run.complete).toBe(true);
    expect([worst.value, -best.value]).toEqual([6, 6]);
  });
});
