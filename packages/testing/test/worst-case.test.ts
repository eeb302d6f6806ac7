/**
 * The worst-case schedule search on a tiny model whose maximum is known: the central coordinator
 * (`centralMutex`) over 3 processes, one round each. Causal attribution charges a pair its own
 * REQUEST and RELEASE, the GRANT of its REQUEST if the coordinator was free when it arrived (else
 * that GRANT belongs to the RELEASE that freed it), and the GRANT its RELEASE causes if a request
 * was queued — so a pair costs 2 to 4 messages, 4 exactly when its request was granted at once and
 * another request was queued before its release; at most 3 calls wait at once.
 */
import { mutexSpec } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  centralMutex,
  decodeChoices,
  describeWorstCase,
  encodeChoices,
  measureRun,
  replaySchedule,
  type ScheduleRun,
  type ScheduleSetup,
  searchWorstSchedule,
} from '../src/index.js';

const setup: ScheduleSetup = { cluster: { factory: centralMutex(), spec: mutexSpec(3) } };

describe('searchWorstSchedule on the central coordinator (known maxima)', () => {
  it('finds the largest pair, 4 messages, and the replay it prints reproduces it', async () => {
    const r = await searchWorstSchedule({ ...setup, measure: 'messagesPerPair', maxSteps: 2_000 });
    expect(r.failure).toBeNull();
    expect(r.value).toBe(4);
    expect(r.steps).toBeGreaterThanOrEqual(2_000);
    const again = await replaySchedule(setup, r.replay);
    expect(measureRun('messagesPerPair', again)).toBe(4);
    expect(again.pairs.map((p) => p.messages)).toEqual(r.run.pairs.map((p) => p.messages));
    const text = describeWorstCase(r, 'messagesPerPair');
    expect(text).toContain(`replaySchedule(setup, '${r.replay}')`);
    expect(text).toContain("expect(measureRun('messagesPerPair', run)).toBe(4);");
  });

  it('reverses the entry order of 5 processes (10 inversions, the maximum) from the default order (0), seeds 1–5', async () => {
    const five: ScheduleSetup = { cluster: { factory: centralMutex(), spec: mutexSpec(5) } };
    const inversions = (run: ScheduleRun): number => {
      const order = run.records
        .filter((r) => r.op === 'entry')
        .sort((a, b) => a.end - b.end)
        .map((r) => r.process);
      let count = 0;
      for (let i = 0; i < order.length; i++)
        for (let j = i + 1; j < order.length; j++) if (order[i]! > order[j]!) count++;
      return count;
    };
    expect(inversions(await replaySchedule(five, ''))).toBe(0); // the default schedule: P0 first
    for (let seed = 1; seed <= 5; seed++) {
      const r = await searchWorstSchedule({ ...five, measure: inversions, maxSteps: 5_000, seed });
      expect(r.value, `seed ${seed}`).toBe(10);
    }
  });

  it('minimising (the measure negated) finds the cheapest pair, 2 messages', async () => {
    const cheapest = (run: Parameters<typeof measureRun>[1]) =>
      -Math.min(...run.pairs.map((p) => p.messages));
    const r = await searchWorstSchedule({ ...setup, measure: cheapest, maxSteps: 2_000 });
    expect(r.value).toBe(-2);
  });

  it('finds 3 processes waiting at once; every pair sums to 3 per CS on average', async () => {
    const r = await searchWorstSchedule({ ...setup, measure: 'waitingProcesses', maxSteps: 1_000 });
    expect(r.value).toBe(3);
    const total = r.run.pairs.reduce((s, p) => s + p.messages, 0);
    expect(total).toBe(3 * 3);
  });

  it('a pasted replay: the schedule where P1 holds, P2 queues, then P1 releases', async () => {
    // lanes: invocations by priority (P1 first), then the messages on each link
    const run = await replaySchedule(setup, 'p0:0 p1:z p2:y m1-0:zz m2-0:y m0-1:z m0-2:z');
    expect(run.complete).toBe(true);
    expect(Object.fromEntries(run.pairs.map((p) => [p.process, p.messages]))).toMatchObject({ 1: 4 });
  });

  it('is deterministic and budgeted by steps: same options, same schedule', async () => {
    const a = await searchWorstSchedule({ ...setup, measure: 'messagesPerPair', maxSteps: 500, seed: 7 });
    const b = await searchWorstSchedule({ ...setup, measure: 'messagesPerPair', maxSteps: 500, seed: 7 });
    expect(b.replay).toBe(a.replay);
    expect([b.runs, b.steps]).toEqual([a.runs, a.steps]);
    expect(a.steps - a.run.steps).toBeLessThan(500);
  });

  it("the 'random' baseline restarts every run", async () => {
    const r = await searchWorstSchedule({
      ...setup,
      measure: 'messagesPerPair',
      maxSteps: 500,
      strategy: 'random',
    });
    expect(r.restarts).toBe(r.runs);
  });

  it("the 'timing' space measures waiting in time units: with unit delays only, an uncontended entry waits 2", async () => {
    const timing: ScheduleSetup = { ...setup, space: 'timing', delays: [1], thinks: [0, 10] };
    const r = await searchWorstSchedule({ ...timing, measure: 'exitWaiting', maxSteps: 500 });
    expect(r.value).toBe(0); // the exit only sends RELEASE
    const entry = await searchWorstSchedule({ ...timing, measure: 'entryWaiting', maxSteps: 2_000 });
    expect(entry.value).toBeGreaterThanOrEqual(2);
    const again = await replaySchedule(timing, entry.replay);
    expect(measureRun('entryWaiting', again)).toBe(entry.value);
  });

  it('encodes lanes as base-36 digits, and rejects malformed text', () => {
    const lanes = new Map([
      ['m0-1', [0, 10, 35]],
      ['p2', [40, 1]],
      ['r0', []],
    ]);
    expect(encodeChoices(lanes)).toBe('m0-1:0az p2:14.1 r0:');
    expect(decodeChoices(encodeChoices(lanes))).toEqual(lanes);
    expect(() => decodeChoices('m0-1=3')).toThrow(/not a schedule lane/);
    expect(() => decodeChoices('p0:1..2')).toThrow(/empty choice/);
  });

  it('refuses a budget that is not a positive integer', async () => {
    await expect(searchWorstSchedule({ ...setup, measure: 'messagesPerPair', maxSteps: 0 })).rejects.toThrow(
      RangeError,
    );
  });
});
