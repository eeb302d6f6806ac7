/**
 * The worst schedules the search of `@critsec/testing` finds against the paper's figures for
 * surficial(9, 2) (c = 3, max[g] = 3; issue 26 §2):
 *
 * - messages per exit+entry pair, every process contending over delivery orders in controlled
 *   mode, the group of each entry picked by the schedule, messages charged causally: Maekawa_M
 *   ≤ 3c + 3c·max[g] = 36 (Theorem 5); Maekawa_S's 2c + 1 = 7 (Theorem 9) counts the messages of
 *   one entry and exit — on average the search finds no more — but causal attribution charges a REQUEST that a node forwards when it is
 *   released to the exit that released it, so single pairs go above 7 — the search finds them;
 * - delay (time units, each message delay picked in {1, 0.5, 0.25}), one process alone:
 *   Maekawa_M's entry waits 2 (Theorem 6), Maekawa_S's c + 1 = 4 (Theorem 9).
 */
import { groupSpec } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { measureRun, replaySchedule, type ScheduleSetup, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';

const system = surficial(9, 2);
const setupOf = (variant: 'M' | 'S'): ScheduleSetup<number> => ({
  cluster: { factory: groupMutex({ system, variant }), spec: groupSpec(2, 9) },
  requests: [0, 1],
});

describe('worst schedule found: messages per pair on surficial(9, 2), all contending', () => {
  it('Maekawa_M: no pair above 3c + 3c·max[g] = 36 in 20,000 steps', async () => {
    const r = await searchWorstSchedule({ ...setupOf('M'), measure: 'messagesPerPair', maxSteps: 20_000 });
    expect(r.failure).toBeNull();
    expect(r.value).toBeLessThanOrEqual(36);
    expect(r.value).toBe(30); // the README's figure
    console.info(`Maekawa_M surficial(9,2): worst pair ${r.value} (${r.runs} runs, ${r.steps} steps)`);
  });

  it('Maekawa_S: a pair above 2c + 1 = 7 (forwarded REQUESTs charged to the releasing exit), replayed', async () => {
    const setup = setupOf('S');
    const r = await searchWorstSchedule({ ...setup, measure: 'messagesPerPair', maxSteps: 20_000 });
    expect(r.failure).toBeNull();
    expect(r.value).toBeGreaterThan(7);
    expect(r.value).toBe(31); // the README's figure
    const again = await replaySchedule(setup, r.replay);
    expect(measureRun('messagesPerPair', again)).toBe(r.value);
    const mean = await searchWorstSchedule({ ...setup, measure: 'meanMessagesPerPair', maxSteps: 20_000 });
    expect(mean.value).toBe(7); // on average, 2c + 1 holds (the README's figure)
    console.info(
      `Maekawa_S surficial(9,2): worst pair ${r.value}, worst mean ${mean.value} (${r.runs} runs, ${r.steps} steps)`,
    );
  });
});

describe('worst schedule found: delay on surficial(9, 2), P4 alone', () => {
  for (const [variant, delay] of [
    ['M', 2],
    ['S', 4],
  ] as const) {
    it(`Maekawa_${variant}: the entry waits at most ${delay} (found ${delay}), 5,000 steps`, async () => {
      const alone = { ...setupOf(variant), space: 'timing', active: [4], rounds: 2 } as const;
      const r = await searchWorstSchedule({ ...alone, measure: 'entryWaiting', maxSteps: 5_000 });
      expect(r.failure).toBeNull();
      expect(r.value).toBe(delay);
    });
  }
});
