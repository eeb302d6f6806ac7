import { globalSpec } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { checkChaos } from '../src/chaos-check.js';
import type { ChaosLogRecord, CounterContent } from '../src/launcher-chaos-rmw.js';
import type { SharedLogRecord } from '../src/shared-log.js';

/** A crafted run: call records and rmw records interleaved in log order. */
type Line = SharedLogRecord | ChaosLogRecord;

let clock = 1_000;
const call = (p: number, e: SharedLogRecord['e']): SharedLogRecord => ({ p, e, t: clock++ });
const rmw = (p: number, read: CounterContent, by: string, s = 0): ChaosLogRecord => ({
  p,
  e: 'rmw',
  t: clock++,
  s,
  read,
  wrote: { value: read.value + 1, by },
});
/** entry, one rmw, exit: a whole round of `p`. */
const round = (p: number, read: CounterContent, by: string, s = 0): Line[] => [
  call(p, 'entry-called'),
  call(p, 'entry-done'),
  rmw(p, read, by, s),
  call(p, 'exit-called'),
  call(p, 'exit-done'),
];
const INITIAL: CounterContent = { value: 0, by: null };

function check(lines: readonly Line[], counters: readonly CounterContent[], k = 1, n = 3) {
  const isChaos = (r: Line): r is ChaosLogRecord => r.e.startsWith('rmw') || r.e.startsWith('tenure');
  const records = lines.filter((r): r is SharedLogRecord => !isChaos(r));
  const chaos = lines.filter(isChaos);
  return checkChaos({ records, chaos, counters, spec: globalSpec(0, k, n) });
}

describe('checkChaos: the chaos run checked as a lock service (issue 27)', () => {
  it('a clean run: each value read once, the counter ends at the number of completed writes', () => {
    const lines = [
      ...round(0, INITIAL, 'a'),
      ...round(1, { value: 1, by: 'a' }, 'b'),
      ...round(2, { value: 2, by: 'b' }, 'c'),
    ];
    const r = check(lines, [{ value: 3, by: 'c' }]);
    expect(r).toMatchObject({
      safetyViolations: 0,
      lostUpdates: 0,
      completedRmws: 3,
      unloggedWrites: 0,
      entries: 3,
    });
    expect(r.duplicateReads).toEqual([]);
    expect(r.sequenceErrors).toEqual([]);
  });

  it('an overlap beyond k is a safety violation', () => {
    const lines = [
      call(0, 'entry-called'),
      call(0, 'entry-done'),
      call(1, 'entry-called'),
      call(1, 'entry-done'),
    ];
    const r = check(lines, [INITIAL]);
    expect(r.safetyViolations).toBeGreaterThan(0);
    expect(r.firstViolation).toMatch(/P0, P1/);
    // the same two holders are fine under k = 2
    expect(check(lines, [INITIAL, INITIAL], 2).safetyViolations).toBe(0);
  });

  it('two holders that read the same value lose an update', () => {
    const lines = [
      call(0, 'entry-called'),
      call(0, 'entry-done'),
      call(1, 'entry-called'),
      call(1, 'entry-done'),
      rmw(0, INITIAL, 'a'),
      rmw(1, INITIAL, 'b'),
      call(0, 'exit-called'),
      call(0, 'exit-done'),
      call(1, 'exit-called'),
      call(1, 'exit-done'),
    ];
    const r = check(lines, [{ value: 1, by: 'b' }]);
    expect(r.lostUpdates).toBe(1);
    expect(r.duplicateReads).toEqual(['initial:0']);
    expect(r.completedRmws).toBe(2);
  });

  it('a final counter short of the completed writes counts the missing updates', () => {
    const lines = [...round(0, INITIAL, 'a'), ...round(1, { value: 1, by: 'a' }, 'b')];
    expect(check(lines, [{ value: 1, by: 'a' }]).lostUpdates).toBe(1);
  });

  it('a holder killed in its CS before its write lost nothing: its read-modify-write never completed', () => {
    const lines = [
      ...round(0, INITIAL, 'a'),
      call(1, 'entry-called'),
      call(1, 'entry-done'),
      call(1, 'crashed'),
      call(1, 'start'),
      ...round(2, { value: 1, by: 'a' }, 'c'),
    ];
    const r = check(lines, [{ value: 2, by: 'c' }]);
    expect(r).toMatchObject({ safetyViolations: 0, lostUpdates: 0, completedRmws: 2, unloggedWrites: 0 });
  });

  it('a holder killed after its write and before its record: the next read sees the write, no update is lost', () => {
    const lines = [
      ...round(0, INITIAL, 'a'),
      call(1, 'entry-called'),
      call(1, 'entry-done'),
      // P1 wrote {value 2, by 'b'} and was killed before logging it
      call(1, 'crashed'),
      call(1, 'start'),
      ...round(2, { value: 2, by: 'b' }, 'c'),
    ];
    const r = check(lines, [{ value: 3, by: 'c' }]);
    expect(r).toMatchObject({ lostUpdates: 0, completedRmws: 3, unloggedWrites: 1 });
    // a checker that counted only the records would see 2 writes against a final 3
  });

  it('two writes in a row unrecorded (both writers killed after their writes): the values show both', () => {
    const lines = [
      ...round(0, INITIAL, 'a'),
      // P1 wrote {2, 'b'}, killed; P2 read it, wrote {3, 'c'}, killed: neither record exists,
      // and 'b' is named by no record at all
      call(1, 'entry-called'),
      call(1, 'entry-done'),
      call(1, 'crashed'),
      call(2, 'entry-called'),
      call(2, 'entry-done'),
      call(2, 'crashed'),
      ...round(0, { value: 3, by: 'c' }, 'd'),
    ];
    const r = check(lines, [{ value: 4, by: 'd' }]);
    // seen from the run of 300 kills of `critsec chaos mutex` (seed 23): the counter four ahead
    // of the writes the tokens showed, reported as a malformed log
    expect(r).toMatchObject({ lostUpdates: 0, completedRmws: 4, unloggedWrites: 2, malformedRmws: 0 });
  });

  it('the last write unrecorded (killed after it): the final counter shows it', () => {
    const lines = [
      ...round(0, INITIAL, 'a'),
      call(1, 'entry-called'),
      call(1, 'entry-done'),
      call(1, 'crashed'),
    ];
    const r = check(lines, [{ value: 2, by: 'b' }]);
    expect(r).toMatchObject({ lostUpdates: 0, completedRmws: 2, unloggedWrites: 1 });
  });

  it('k > 1: a holder that found every slot claimed lost its update; slots are checked apart', () => {
    const lines: Line[] = [
      ...round(0, INITIAL, 'a', 0),
      ...round(1, INITIAL, 'b', 1),
      { p: 2, e: 'rmw-refused', t: clock++, claims: ['a', 'b'] },
    ];
    const r = check(
      lines,
      [
        { value: 1, by: 'a' },
        { value: 1, by: 'b' },
      ],
      2,
    );
    expect(r).toMatchObject({ lostUpdates: 1, completedRmws: 2, duplicateReads: [] });
  });

  it('a record whose write is not its read plus one is malformed', () => {
    const bad: ChaosLogRecord = {
      p: 0,
      e: 'rmw',
      t: clock++,
      s: 0,
      read: INITIAL,
      wrote: { value: 5, by: 'a' },
    };
    expect(check([bad], [{ value: 5, by: 'a' }]).malformedRmws).toBeGreaterThan(0);
  });

  it('the longest stall and the entries after each restart come from the entry-done times', () => {
    const at = (p: number, e: SharedLogRecord['e'], t: number): SharedLogRecord => ({ p, e, t });
    const records = [
      at(0, 'entry-called', 0),
      at(0, 'entry-done', 10),
      at(0, 'exit-called', 11),
      at(0, 'exit-done', 12),
      at(1, 'crashed', 20),
      at(1, 'start', 500),
      at(0, 'entry-called', 600),
      at(0, 'entry-done', 610),
      at(0, 'exit-called', 611),
      at(0, 'exit-done', 612),
      at(1, 'entry-called', 613),
      at(1, 'entry-done', 700),
    ];
    const r = checkChaos({
      records,
      chaos: [],
      counters: [INITIAL],
      spec: globalSpec(0, 1, 2),
      restartTimes: [400],
    });
    expect(r.longestStallMs).toBe(600);
    expect(r.entriesAfterEachRestart).toEqual([{ at: 400, entries: 2 }]);
  });

  it('fewer than l possibly InCS is information only: no safety property under crashes', () => {
    const records = [call(0, 'exit-called'), call(0, 'exit-done')];
    const r = checkChaos({
      records,
      chaos: [],
      counters: [INITIAL, INITIAL],
      spec: globalSpec(1, 2, 2),
      initial: ['InCS', 'OutCS'],
    });
    expect(r.lowerBoundDips).toBeGreaterThan(0);
    expect(r.safetyViolations).toBe(0);
  });

  it('crash-stop (issue 28): a member killed InCS and never restarted is InCS no more, its unfinished read-modify-write no update', () => {
    // P0 enters, reads the counter (no record: it is killed before its write), dies for good;
    // P1 and P2 go on without it
    const lines = [
      call(0, 'entry-called'),
      call(0, 'entry-done'),
      call(0, 'crashed'),
      ...round(1, INITIAL, 'b'),
      ...round(2, { value: 1, by: 'b' }, 'c'),
      call(1, 'entry-called'),
    ];
    const r = check(lines, [{ value: 2, by: 'c' }]);
    expect(r).toMatchObject({ safetyViolations: 0, lostUpdates: 0, completedRmws: 2, malformedRmws: 0 });
    expect(r.sequenceErrors).toEqual([]);
    // the same log without P0's `crashed` line: P0 is certainly InCS while P1 enters
    const alive = check(
      lines.filter((l) => !(l.p === 0 && l.e === 'crashed')),
      [{ value: 2, by: 'c' }],
    );
    expect(alive.safetyViolations).toBeGreaterThan(0);
  });

  const tenure = (
    p: number,
    f: number,
    e: 'tenure' | 'tenure-late' | 'tenure-expired' = 'tenure',
  ): ChaosLogRecord => ({
    p,
    e,
    t: clock++,
    f,
  });

  it('fencing (issue 28): tokens rising across holders are no violation; expired grants and stale rejections are counted', () => {
    const c = check(
      [
        call(0, 'entry-called'),
        call(0, 'entry-done'),
        tenure(0, 1),
        call(0, 'exit-called'),
        call(0, 'exit-done'),
        call(1, 'entry-called'),
        call(1, 'entry-done'),
        tenure(1, 2),
        { p: 1, e: 'rmw-fenced', t: clock++, s: 0, op: 'write', f: 2, fence: 3 },
        tenure(1, 2, 'tenure-expired'),
        call(1, 'exit-called'),
        call(1, 'exit-done'),
      ],
      [INITIAL],
    );
    expect(c).toMatchObject({ tenures: 2, fencingViolations: 0, expiredGrants: 1, staleRejected: 1 });
    expect(c.firstFencingViolation).toBeNull();
  });

  it('fencing: a valid token not above an earlier valid one is a violation; one logged after its deadline is no evidence', () => {
    const c = check(
      [tenure(0, 5), tenure(1, 5), tenure(2, 4), tenure(2, 4, 'tenure-late'), tenure(0, 6)],
      [INITIAL],
    );
    expect(c).toMatchObject({ tenures: 4, fencingViolations: 1, expiredGrants: 0 });
    expect(c.firstFencingViolation).toBe('P1 entered with token 5 after P0 had entered with 5');
  });

  it('fencing: an overlap of a holder whose tenure expired in that CS is explained, not a violation on effects; another overlap still is', () => {
    const expired: ChaosLogRecord = { p: 0, e: 'tenure-expired', t: 0, f: 1, r: 1 };
    const lines = (explain: boolean): Line[] => [
      { ...call(0, 'entry-called'), r: 1 },
      { ...call(0, 'entry-done'), r: 1 },
      tenure(0, 1),
      // P0 paused past its ttl; P1 gets the grant
      { ...call(1, 'entry-called'), r: 1 },
      { ...call(1, 'entry-done'), r: 1 },
      tenure(1, 2),
      { ...call(1, 'exit-called'), r: 1 },
      { ...call(1, 'exit-done'), r: 1 },
      ...(explain ? [{ ...expired, t: clock++ }] : []),
      { ...call(0, 'exit-called'), r: 1 },
      { ...call(0, 'exit-done'), r: 1 },
    ];
    const explained = check(lines(true), [INITIAL]);
    expect(explained).toMatchObject({ safetyViolations: 0, expiredOverlaps: 1, expiredGrants: 1 });
    expect(explained.firstViolation).toBeNull();
    const not = check(lines(false), [INITIAL]);
    expect(not).toMatchObject({ safetyViolations: 1, expiredOverlaps: 0 });
  });
});
