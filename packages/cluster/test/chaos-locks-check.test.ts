import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkLocks,
  type LockLogLine,
  type LockRecordMode,
  readLockLines,
} from '../src/chaos-locks-check.js';
import type { ChaosLogRecord, CounterContent } from '../src/launcher-chaos-rmw.js';

/** A crafted run of `critsec chaos locks`: lock lines and rmw records in log order. */
type Line = LockLogLine | ChaosLogRecord;

let clock = 1_000;
const held = (p: number, x: number, m: LockRecordMode, f?: number): Line => ({
  p,
  e: 'lock-held',
  t: clock++,
  x,
  m,
  r: 1,
  ...(f === undefined ? {} : { f }),
});
const release = (p: number, x: number, expired = false): Line => ({
  p,
  e: 'lock-release',
  t: clock++,
  x,
  r: 1,
  ...(expired ? { expired: true as const } : {}),
});
const rmw = (p: number, x: number, read: CounterContent, by: string): Line => ({
  p,
  e: 'rmw',
  t: clock++,
  s: x,
  read,
  wrote: { value: read.value + 1, by },
});
/** An exclusive hold of name `x` by `p` with its read-modify-write. */
const exclusive = (p: number, x: number, read: CounterContent, by: string, f?: number): Line[] => [
  held(p, x, 'exclusive', f),
  rmw(p, x, read, by),
  release(p, x),
];
const ZERO: CounterContent = { value: 0, by: null };

function check(lines: readonly Line[], counters: readonly CounterContent[], k = 2) {
  const isRmw = (r: Line): r is ChaosLogRecord => r.e.startsWith('rmw');
  return checkLocks({
    lines: lines.filter((r): r is LockLogLine => !isRmw(r)),
    chaos: lines.filter(isRmw),
    counters,
    k,
  });
}

describe('checkLocks: a chaos run of named locks checked per name (issue 29)', () => {
  it('a clean run: holds of different names overlap freely, k shared holders together, no update lost', () => {
    const lines = [
      held(0, 0, 'exclusive'),
      held(1, 1, 'shared'), // another name: no overlap
      held(2, 1, 'shared'), // two shared holders, k = 2
      rmw(0, 0, ZERO, 'a'),
      release(1, 1),
      release(2, 1),
      release(0, 0),
      ...exclusive(1, 0, { value: 1, by: 'a' }, 'b'),
    ];
    const r = check(lines, [{ value: 2, by: 'b' }, ZERO]);
    expect(r).toMatchObject({ entries: 4, exclusive: 2, shared: 2, safetyViolations: 0, lostUpdates: 0 });
    expect(r.names.map((n) => [n.holds, n.completedRmws])).toEqual([
      [2, 2],
      [2, 0],
    ]);
  });

  it('catches an exclusive holder beside a shared one, and more than k shared holders, on one name', () => {
    const beside = [held(0, 1, 'exclusive'), held(1, 1, 'shared'), release(1, 1), release(0, 1)];
    expect(check(beside, [ZERO, ZERO]).names[1]).toMatchObject({ violations: 1 });
    expect(check(beside, [ZERO, ZERO]).firstViolation).toMatch(/name-1: P0 \(exclusive\), P1 \(shared\)/);
    const crowd = [held(0, 0, 'shared'), held(1, 0, 'shared'), held(2, 0, 'shared')];
    expect(check(crowd, [ZERO], 2).safetyViolations).toBe(1);
    expect(check(crowd, [ZERO], 3).safetyViolations).toBe(0);
  });

  it('catches a lost update: two holders read the same value, the counter ends one short', () => {
    // in turn in the log (no overlap seen), but the second read what the first read: its update is lost
    const lines = [...exclusive(0, 0, ZERO, 'a'), ...exclusive(1, 0, ZERO, 'b')];
    const r = check(lines, [{ value: 1, by: 'b' }]);
    expect(r).toMatchObject({ safetyViolations: 0, lostUpdates: 1, completedRmws: 2 });
    // and when they overlapped in the log, the overlap too
    const both = [
      held(0, 0, 'exclusive'),
      held(1, 0, 'exclusive'),
      rmw(0, 0, ZERO, 'a'),
      rmw(1, 0, ZERO, 'b'),
    ];
    expect(check(both, [{ value: 1, by: 'b' }])).toMatchObject({ safetyViolations: 1, lostUpdates: 1 });
  });

  it('a crashed holder holds nothing from its crashed line; an expired grant explains an overlap', () => {
    const crash: Line[] = [
      held(0, 0, 'exclusive'),
      { p: 0, e: 'crashed', t: clock++ },
      held(1, 0, 'exclusive'),
    ];
    expect(check(crash, [ZERO]).safetyViolations).toBe(0);
    const expired = [held(0, 0, 'exclusive'), held(1, 0, 'exclusive'), release(1, 0), release(0, 0, true)];
    expect(check(expired, [ZERO])).toMatchObject({
      safetyViolations: 0,
      expiredOverlaps: 1,
      expiredGrants: 1,
    });
  });

  it('fencing, per name: conflicting holders must rise; sharers may share a token; a late record is no evidence', () => {
    const ok = [
      ...exclusive(0, 0, ZERO, 'a', 5),
      ...exclusive(1, 1, ZERO, 'b', 2), // another name: its own tokens
      held(1, 0, 'shared', 6),
      held(2, 0, 'shared', 6), // sharers: the same token
      release(1, 0),
      release(2, 0),
    ];
    expect(
      check(ok, [
        { value: 1, by: 'a' },
        { value: 1, by: 'b' },
      ]),
    ).toMatchObject({
      tenures: 4,
      fencingViolations: 0,
    });
    const stale = [...exclusive(0, 0, ZERO, 'a', 5), held(1, 0, 'shared', 5), release(1, 0)];
    expect(check(stale, [{ value: 1, by: 'a' }]).fencingViolations).toBe(1);
    const staleX = [held(1, 0, 'shared', 6), release(1, 0), ...exclusive(0, 0, ZERO, 'a', 6)];
    expect(check(staleX, [{ value: 1, by: 'a' }]).firstFencingViolation).toMatch(
      /P0 held it \(exclusive\) with token 6/,
    );
    const late: Line = { p: 0, e: 'lock-late', t: clock++, x: 0, r: 1, f: 6 };
    expect(check([...staleX, late], [{ value: 1, by: 'a' }]).fencingViolations).toBe(0);
  });

  it('readLockLines reads the lock records and the crashed and start lines of a shared log, in order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'critsec-locks-check-'));
    try {
      const path = join(dir, 'shared.log');
      const lines = [
        { p: 0, e: 'start', t: 1, inc: 's' },
        held(0, 0, 'exclusive'),
        rmw(0, 0, ZERO, 'a'),
        { p: 0, e: 'crashed', t: 2, sig: 'SIGKILL' },
      ];
      writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"p":1,"e":"lock-he`);
      expect(readLockLines(path).map((l) => l.e)).toEqual(['start', 'lock-held', 'crashed']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
