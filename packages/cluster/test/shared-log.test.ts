import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { graphFromEdges, groupSpec, hOutOfKSpec, localSpec } from '@critsec/core';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSharedLog, readSharedLog, type SharedLogEvent, type SharedLogRecord } from '../src/index.js';
import { appendSharedLogRecord, SharedLogWriter } from '../src/shared-log.js';

const dir = mkdtempSync(join(tmpdir(), 'critsec-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Builds records from `"P0 entry-called"`-style lines. */
function log(...lines: string[]): SharedLogRecord[] {
  return lines.map((l, t) => {
    const [p, e] = l.split(' ') as [string, SharedLogEvent];
    return { p: Number(p.slice(1)), e, t };
  });
}

const cycle = (p: number) => [
  `P${p} entry-called`,
  `P${p} entry-done`,
  `P${p} exit-called`,
  `P${p} exit-done`,
];

describe('checkSharedLog (sound (l,k) check over the shared log)', () => {
  it('accepts sequential critical sections under mutual exclusion', () => {
    const r = checkSharedLog(log(...cycle(0), ...cycle(1), ...cycle(0)), { n: 2, l: 0, k: 1 });
    expect(r.ok).toBe(true);
    expect(r.entries).toEqual([2, 1]);
    expect(r.maxCertainlyInCS).toBe(1);
  });

  it('reports an upper-bound violation only when both are certainly InCS (entry-done … exit-called)', () => {
    // P1 called entry while P0 is inside, but P1's entry is done only after P0 called exit:
    // possibly overlapping in reality, but not provably — no violation.
    const maybe = log(
      'P0 entry-called',
      'P0 entry-done',
      'P1 entry-called',
      'P0 exit-called',
      'P1 entry-done',
      'P0 exit-done',
      'P1 exit-called',
      'P1 exit-done',
    );
    expect(checkSharedLog(maybe, { n: 2, l: 0, k: 1 }).ok).toBe(true);
    // P1's entry is done while P0 is certainly inside: a proven violation.
    const certain = log(
      'P0 entry-called',
      'P0 entry-done',
      'P1 entry-called',
      'P1 entry-done',
      'P0 exit-called',
      'P0 exit-done',
      'P1 exit-called',
      'P1 exit-done',
    );
    const r = checkSharedLog(certain, { n: 2, l: 0, k: 1 });
    expect(r.ok).toBe(false);
    expect(r.violations).toEqual([
      {
        kind: 'upper',
        index: 3,
        count: 2,
        bound: 1,
        processes: [0, 1],
        message: '2 processes InCS, more than k = 1',
      },
    ]);
    // k = 2 allows it.
    expect(checkSharedLog(certain, { n: 3, l: 0, k: 2 }).ok).toBe(true);
  });

  it('reports a lower-bound violation only when fewer than l are even possibly InCS (entry-called … exit-done)', () => {
    const initial = ['InCS', 'InCS', 'OutCS'] as const;
    // (1,3)-CS: P0 leaves; P1 leaves while P0 is out: nobody possibly InCS.
    const bad = log('P0 exit-called', 'P0 exit-done', 'P1 exit-called', 'P1 exit-done');
    const r = checkSharedLog(bad, { n: 3, l: 1, k: 3, initial });
    expect(r.violations.map((v) => [v.kind, v.index, v.count])).toEqual([['lower', 3, 0]]);
    expect(r.minPossiblyInCS).toBe(0);
    // If P1 starts leaving only after P2 called entry, P2 is possibly InCS: no proof.
    const ok = log(
      'P0 exit-called',
      'P0 exit-done',
      'P2 entry-called',
      'P1 exit-called',
      'P1 exit-done',
      'P2 entry-done',
    );
    expect(checkSharedLog(ok, { n: 3, l: 1, k: 3, initial }).ok).toBe(true);
  });

  it('flags events out of per-process order', () => {
    const r = checkSharedLog(log('P0 entry-done', 'P0 exit-done'), { n: 1, l: 0, k: 1 });
    expect(r.ok).toBe(false);
    expect(r.sequenceErrors[0]).toMatch(/record 0: P0 entry-done while out \(expected entering\)/);
  });

  it('a crashed process leaves the certain set at once, and its next incarnation starts from the initial state', () => {
    const records = log(
      'P0 start',
      'P0 entry-called',
      'P0 entry-done',
      'P0 crashed',
      'P1 entry-called',
      'P1 entry-done',
      'P0 start',
      ...cycle(1).slice(2),
      ...cycle(0),
    );
    const r = checkSharedLog(records, { n: 2, l: 0, k: 1 });
    expect(r.ok).toBe(true);
    expect(r.entries).toEqual([2, 1]);
  });

  it('an aborted call closes the interval it opened', () => {
    // P0's aborted entry never made it InCS: P1 entering afterwards is fine.
    const entry = log('P0 entry-called', 'P0 entry-aborted', ...cycle(1));
    expect(checkSharedLog(entry, { n: 2, l: 0, k: 1 }).ok).toBe(true);
    // P0's aborted exit leaves it InCS: P1 entering then is a proven violation.
    const exit = log(
      'P0 entry-called',
      'P0 entry-done',
      'P0 exit-called',
      'P0 exit-aborted',
      'P1 entry-called',
      'P1 entry-done',
    );
    const r = checkSharedLog(exit, { n: 2, l: 0, k: 1 });
    expect(r.violations.map((v) => [v.kind, v.index])).toEqual([['upper', 5]]);
    // An abort without a call in flight is out of order.
    expect(checkSharedLog(log('P0 exit-aborted'), { n: 1, l: 0, k: 1 }).sequenceErrors).toHaveLength(1);
  });

  it('rejects bounds that are not 0 ≤ l < k ≤ n', () => {
    expect(() => checkSharedLog([], { n: 2, l: 1, k: 1 })).toThrow(/0 ≤ l < k ≤ n/);
    expect(() => checkSharedLog([], { n: 2, l: 0, k: 3 })).toThrow(/0 ≤ l < k ≤ n/);
    expect(() => checkSharedLog([], { n: 2, l: 0, k: 1, initial: ['OutCS'] })).toThrow(/1 states, n = 2/);
  });
});

/** Builds records from `"P0 entry-called 2"`-style lines (the third word: the request). */
function logWithRequests(...lines: string[]): SharedLogRecord[] {
  return lines.map((l, t) => {
    const [p, e, q] = l.split(' ') as [string, SharedLogEvent, string | undefined];
    return { p: Number(p.slice(1)), e, t, ...(q === undefined ? {} : { q: Number(q) }) };
  });
}

describe('checkSharedLog over other problems (spec)', () => {
  const overlap = (a: string, b: string) =>
    logWithRequests(
      `P0 entry-called ${a}`,
      'P0 entry-done',
      `P1 entry-called ${b}`,
      'P1 entry-done',
      'P0 exit-called',
      'P0 exit-done',
      'P1 exit-called',
      'P1 exit-done',
    );

  it('h-out-of-k: the units of the processes certainly InCS, from the logged requests', () => {
    const spec = hOutOfKSpec(3, 2);
    expect(checkSharedLog(overlap('1', '2'), { n: 2, spec }).ok).toBe(true);
    const r = checkSharedLog(overlap('2', '2'), { n: 2, spec });
    expect(r.ok).toBe(false);
    expect(r.violations[0]).toMatchObject({ kind: 'upper', index: 3, bound: 3, processes: [0, 1] });
    expect(r.violations[0]!.message).toMatch(/4 units held InCS, more than k = 3/);
  });

  it('group: two groups certainly InCS together is a violation, one group is not', () => {
    const spec = groupSpec(2, 2);
    expect(checkSharedLog(overlap('1', '1'), { n: 2, spec }).ok).toBe(true);
    const r = checkSharedLog(overlap('0', '1'), { n: 2, spec });
    expect(r.violations[0]).toMatchObject({ kind: 'upper', index: 3, bound: 1 });
    expect(r.violations[0]!.message).toMatch(/together/);
  });

  it('local: a neighbourhood over kᵢ (upper) or under lᵢ (lower), naming the process', () => {
    // path 0 – 1 – 2: N[0] = {0, 1}, N[1] = {0, 1, 2}, N[2] = {1, 2}
    const path = graphFromEdges(3, [
      [0, 1],
      [1, 2],
    ]);
    const spec = localSpec(path, [0, 0, 0], [1, 2, 2]);
    // P0 and P1 certainly InCS together: N[0] holds 2 > k_0 = 1
    const r = checkSharedLog(overlap('0', '0'), { n: 3, spec });
    expect(r.violations[0]).toMatchObject({ kind: 'upper', index: 3, bound: 1, at: 0 });
    // P0 and P2 are not neighbours: fine
    const apart = logWithRequests(...cycle(0).slice(0, 2), ...cycle(2).slice(0, 2), 'P0 exit-called');
    expect(checkSharedLog(apart, { n: 3, spec }).ok).toBe(true);
    // lower bound l_2 = 1 around P2, everyone initially InCS; P1 and P2 leave
    const lower = localSpec(path, [0, 0, 1], [2, 3, 2]);
    const leave = log('P1 exit-called', 'P1 exit-done', 'P2 exit-called', 'P2 exit-done');
    const r2 = checkSharedLog(leave, { n: 3, spec: lower, initial: ['OutCS', 'InCS', 'InCS'] });
    expect(r2.violations[0]).toMatchObject({ kind: 'lower', index: 3, bound: 1, at: 2, count: 0 });
  });

  it('rejects a spec for another n', () => {
    expect(() => checkSharedLog([], { n: 3, spec: groupSpec(2, 2) })).toThrow(/spec.n = 2, n = 3/);
  });
});

describe('the shared log file', () => {
  it('reads records back in order and counts unreadable lines', () => {
    const path = join(dir, 'small.log');
    writeFileSync(path, '');
    const w = new SharedLogWriter(path, { process: 1, incarnation: 'abc' });
    w.append('start');
    w.append('entry-called', 1);
    appendSharedLogRecord(path, { p: 1, e: 'crashed', t: 5, sig: 'SIGKILL' });
    w.close();
    writeFileSync(path, 'not json\n{"p":-1,"e":"start","t":0}\n', { flag: 'a' });
    const { records, malformed } = readSharedLog(path);
    expect(records.map((r) => [r.p, r.e, r.r, r.inc])).toEqual([
      [1, 'start', undefined, 'abc'],
      [1, 'entry-called', 1, 'abc'],
      [1, 'crashed', undefined, undefined],
    ]);
    expect(malformed).toBe(2);
  });

  it('O_APPEND writes from concurrent OS processes land whole: 4 × 2,000 lines, none torn', async () => {
    const path = join(dir, 'concurrent.log');
    writeFileSync(path, '');
    const writer = `
      const fs = require('node:fs');
      const fd = fs.openSync(process.argv[1], 'a');
      const p = Number(process.argv[2]);
      for (let i = 0; i < 2000; i++) fs.writeSync(fd, JSON.stringify({ p, e: 'entry-called', r: i, t: Date.now(), pad: 'x'.repeat(200) }) + '\\n');
      fs.closeSync(fd);`;
    await Promise.all(
      [0, 1, 2, 3].map(
        (p) =>
          new Promise<void>((resolve, reject) => {
            const c = spawn(process.execPath, ['-e', writer, path, String(p)], { stdio: 'ignore' });
            c.on('exit', (code) =>
              code === 0 ? resolve() : reject(new Error(`writer ${p} exited ${code}`)),
            );
          }),
      ),
    );
    const { records, malformed } = readSharedLog(path);
    expect(malformed).toBe(0);
    expect(records).toHaveLength(8000);
    // Per process, its own lines keep their order.
    for (const p of [0, 1, 2, 3]) {
      const rs = records.filter((r) => r.p === p).map((r) => r.r);
      expect(rs).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    }
  });
});
