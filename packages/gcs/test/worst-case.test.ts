/**
 * The worst schedules the search of `@critsec/testing` finds against Theorem 4 (issue 26 §2):
 *
 * - waiting time (time units, every message delay ≤ 1: the search picks each delay in
 *   {1, 0.5, 0.25}), one process calling alone — the uncontended setting: exit and entry ≤ 9; the
 *   worst found is the unit-delay chain, 6 each;
 * - messages per exit+entry pair, every process contending over delivery orders in controlled
 *   mode (causal attribution): two MUTIN layers, each at most 12·|Q| per pair on average
 *   (`@critsec/mutin`'s worst-case test) — 24·|Q| in all.
 */
import { globalSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { measureRun, replaySchedule, type ScheduleSetup, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { gcs } from '../src/index.js';

describe('worst schedule found: (2,5)-GCS over grid(9), P2 calling alone', () => {
  const alone: ScheduleSetup = {
    cluster: { factory: gcs({ l: 2, k: 5, coterie: grid(9) }), spec: globalSpec(2, 5, 9) },
    space: 'timing',
    active: [2],
    rounds: 2,
  };
  it('entry and exit wait at most 9 (found 6 each), 10,000 steps each', async () => {
    const exit = await searchWorstSchedule({ ...alone, measure: 'exitWaiting', maxSteps: 10_000 });
    const entry = await searchWorstSchedule({ ...alone, measure: 'entryWaiting', maxSteps: 10_000 });
    expect([exit.failure, entry.failure]).toEqual([null, null]);
    expect([exit.value, entry.value]).toEqual([6, 6]);
    const again = await replaySchedule(alone, entry.replay);
    expect(measureRun('entryWaiting', again)).toBe(6);
  });
});

describe('worst schedule found: (1,2)-GCS over majority(3), |Q| = 2, all contending', () => {
  const contended: ScheduleSetup = {
    cluster: { factory: gcs({ l: 1, k: 2, coterie: majority(3) }), spec: globalSpec(1, 2, 3) },
  };
  it('mean per pair ≤ 24·|Q| = 48, and the largest pair, in 20,000 steps each', async () => {
    const mean = await searchWorstSchedule({
      ...contended,
      measure: 'meanMessagesPerPair',
      maxSteps: 20_000,
    });
    const max = await searchWorstSchedule({ ...contended, measure: 'messagesPerPair', maxSteps: 20_000 });
    expect([mean.failure, max.failure]).toEqual([null, null]);
    expect(mean.value).toBeLessThanOrEqual(48);
    expect(max.value).toBeLessThanOrEqual(48);
    expect([mean.value, max.value]).toEqual([36, 36]); // the README's figures
    console.info(
      `(1,2)-GCS majority(3): worst mean ${mean.value}, worst pair ${max.value} (${max.runs} runs)`,
    );
  });
});
