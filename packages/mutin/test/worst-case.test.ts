/**
 * The worst schedules the search of `@critsec/testing` finds against Lemmas 3–4 (issue 26 §2):
 *
 * - waiting time (time units, every message delay ≤ 1: the search picks each delay in
 *   {1, 0.5, 0.25}), one process calling alone — the lemmas' uncontended setting: Exit() ≤ 7,
 *   Entry() ≤ 2; the worst found is the unit-delay chain, 6 and 0;
 * - messages per exit+entry pair, every process contending over delivery orders in controlled
 *   mode (causal attribution): MUTIN's own 4|Q| + |Q| + ≤ |Q| plus the mx's entry and exit,
 *   Maekawa here (≤ 6·|Q| per CS on average, its README) — at most 12·|Q| per pair on average.
 */
import { globalSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { measureRun, replaySchedule, type ScheduleSetup, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { mutin } from '../src/index.js';

describe('worst schedule found: MUTIN(3) over grid(9), P3 calling alone (Lemma 4)', () => {
  const alone: ScheduleSetup = {
    cluster: { factory: mutin({ l: 3, coterie: grid(9) }), spec: globalSpec(3, 9, 9) },
    space: 'timing',
    active: [3],
    rounds: 2,
  };
  it('Exit() waits at most 7 (found 6), Entry() at most 2 (found 0), 10,000 and 2,000 steps', async () => {
    const exit = await searchWorstSchedule({ ...alone, measure: 'exitWaiting', maxSteps: 10_000 });
    const entry = await searchWorstSchedule({ ...alone, measure: 'entryWaiting', maxSteps: 2_000 });
    expect([exit.failure, entry.failure]).toEqual([null, null]);
    expect([exit.value, entry.value]).toEqual([6, 0]);
    const again = await replaySchedule(alone, exit.replay);
    expect(measureRun('exitWaiting', again)).toBe(6);
  });
});

describe('worst schedule found: MUTIN(1) over majority(3), |Q| = 2, all contending (Lemma 3)', () => {
  const contended: ScheduleSetup = {
    cluster: { factory: mutin({ l: 1, coterie: majority(3) }), spec: globalSpec(1, 3, 3) },
  };
  it('mean per pair ≤ 12·|Q| = 24, and the largest pair, in 20,000 steps each', async () => {
    const mean = await searchWorstSchedule({
      ...contended,
      measure: 'meanMessagesPerPair',
      maxSteps: 20_000,
    });
    const max = await searchWorstSchedule({ ...contended, measure: 'messagesPerPair', maxSteps: 20_000 });
    expect([mean.failure, max.failure]).toEqual([null, null]);
    expect(mean.value).toBeLessThanOrEqual(24);
    expect(max.value).toBeLessThanOrEqual(24);
    expect([mean.value, max.value]).toEqual([58 / 3, 21]); // the README's figures
    console.info(
      `MUTIN(1) majority(3): worst mean ${mean.value}, worst pair ${max.value} (${max.runs} runs)`,
    );
  });
});
