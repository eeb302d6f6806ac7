import { globalSpec, graphFromEdges, hOutOfKSpec, localSpec } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { type CallLogEvent, type CallLogRecord, checkCallLog, LogMonitor } from '../src/log-monitor.js';

/** Records from `"P0 entry-called [request]"` lines. */
function log(...lines: string[]): CallLogRecord[] {
  return lines.map((l) => {
    const [p, e, q] = l.split(' ') as [string, CallLogEvent, string | undefined];
    return { p: Number(p.slice(1)), e, ...(q === undefined ? {} : { q: Number(q) }) };
  });
}
const cycle = (p: number) => [
  `P${p} entry-called`,
  `P${p} entry-done`,
  `P${p} exit-called`,
  `P${p} exit-done`,
];
const mutex = (n: number) => ({ spec: globalSpec(0, 1, n) });

describe('LogMonitor (a safety monitor fed from a log of call records)', () => {
  it('accepts sequential critical sections and counts entries', () => {
    const r = checkCallLog(log(...cycle(0), ...cycle(1), ...cycle(0)), mutex(2));
    expect(r).toMatchObject({
      ok: true,
      records: 12,
      entries: [2, 1],
      maxCertainlyInCS: 1,
      violationCount: 0,
    });
  });

  it('proves an upper violation only between entry-done and exit-called of both', () => {
    const maybe = log(
      'P0 entry-called',
      'P0 entry-done',
      'P1 entry-called',
      'P0 exit-called',
      'P1 entry-done',
    );
    expect(checkCallLog(maybe, mutex(2)).ok).toBe(true);
    const certain = log(
      'P0 entry-called',
      'P0 entry-done',
      'P1 entry-called',
      'P1 entry-done',
      'P0 exit-called',
    );
    const r = checkCallLog(certain, mutex(2));
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
    expect(r.violationCount).toBe(1);
  });

  it('proves a lower violation when fewer than l are even possibly InCS', () => {
    const initial = ['InCS', 'InCS', 'OutCS'] as const;
    const bad = log('P0 exit-called', 'P0 exit-done', 'P1 exit-called', 'P1 exit-done');
    const r = checkCallLog(bad, { spec: globalSpec(1, 3, 3), initial });
    expect(r.violations.map((v) => [v.kind, v.index, v.count, v.bound])).toEqual([['lower', 3, 0, 1]]);
    expect(r.minPossiblyInCS).toBe(0);
    const covered = log(
      'P0 exit-called',
      'P0 exit-done',
      'P2 entry-called',
      'P1 exit-called',
      'P1 exit-done',
    );
    expect(checkCallLog(covered, { spec: globalSpec(1, 3, 3), initial }).ok).toBe(true);
  });

  it('aborted calls close their interval; out-of-order events are reported', () => {
    expect(checkCallLog(log('P0 entry-called', 'P0 entry-aborted', ...cycle(1)), mutex(2)).ok).toBe(true);
    const exit = log('P0 entry-called', 'P0 entry-done', 'P0 exit-called', 'P0 exit-aborted', ...cycle(1));
    expect(checkCallLog(exit, mutex(2)).violations.map((v) => [v.kind, v.index])).toEqual([['upper', 5]]);
    const r = checkCallLog(log('P0 entry-done', 'P7 exit-done'), mutex(1));
    expect(r.sequenceErrors).toEqual([
      'record 0: P0 entry-done while out (expected entering)',
      'record 1: unknown process 7',
    ]);
  });

  it('a crashed process leaves the certain set; its next start puts it back in its initial state', () => {
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
    expect(checkCallLog(records, mutex(2))).toMatchObject({ ok: true, entries: [2, 1] });
  });

  it('a recovered incarnation: recovering changes nothing, recovered puts it in the state it recovered in', () => {
    const rec = (p: number, s: 'InCS' | 'OutCS'): CallLogRecord => ({ p, e: 'recovered', s });
    // P0 crashed InCS and recovered InCS (a (l,k)-GCS process stays there): it counts as InCS
    // until its exit, so P1's entry meanwhile is an overlap, and P0's exit is in order
    const stays = [
      ...log('P0 entry-called', 'P0 entry-done', 'P0 crashed', 'P0 recovering'),
      rec(0, 'InCS'),
      ...log('P1 entry-called', 'P1 entry-done', 'P0 exit-called', 'P0 exit-done'),
    ];
    const r = checkCallLog(stays, mutex(2));
    expect(r.sequenceErrors).toEqual([]);
    expect(r.violations.map((v) => [v.kind, v.index, v.processes])).toEqual([['upper', 6, [0, 1]]]);
    // recovered OutCS (Maekawa leaves the CS): no overlap; its next call starts from out
    const leaves = [
      ...log('P0 entry-called', 'P0 entry-done', 'P0 crashed', 'P0 recovering'),
      rec(0, 'OutCS'),
      ...log(...cycle(1), ...cycle(0)),
    ];
    expect(checkCallLog(leaves, mutex(2))).toMatchObject({ ok: true, entries: [2, 1] });
    // `recovering` alone keeps the crash's conservative view (a `start` would reset P0 to its
    // initial InCS and prove an overlap that may not exist)
    const waiting = log('P0 exit-called', 'P0 crashed', 'P0 recovering', 'P1 entry-called', 'P1 entry-done');
    expect(checkCallLog(waiting, { spec: globalSpec(0, 1, 2), initial: ['InCS', 'OutCS'] }).ok).toBe(true);
  });

  it('h-out-of-k: a process recovered InCS holds the units it last entered with', () => {
    const m = new LogMonitor({ spec: hOutOfKSpec(3, 2) });
    const feed = (...lines: string[]) => log(...lines).map((rec, i) => m.feed(rec, i));
    feed('P0 entry-called 2', 'P0 entry-done', 'P0 crashed', 'P0 recovering');
    m.feed({ p: 0, e: 'recovered', s: 'InCS' }, 4);
    expect(
      feed('P1 entry-called 2', 'P1 entry-done')
        .flat()
        .map((v) => v.message),
    ).toEqual(['4 units held InCS, more than k = 3']);
  });

  it('h-out-of-k: units of the logged requests; a restart gives back the initial request', () => {
    const overlap = (a: number, b: number) =>
      log(`P0 entry-called ${a}`, 'P0 entry-done', `P1 entry-called ${b}`, 'P1 entry-done', 'P0 exit-called');
    const spec = hOutOfKSpec(3, 2);
    expect(checkCallLog(overlap(1, 2), { spec }).ok).toBe(true);
    const r = checkCallLog(overlap(2, 2), { spec });
    expect(r.violations[0]).toMatchObject({ kind: 'upper', index: 3, bound: 3, processes: [0, 1] });
    expect(r.violations[0]!.message).toMatch(/4 units held InCS, more than k = 3/);
    // P0 starts InCS with 1 unit, enters again with 3 after a cycle, crashes, restarts with 1.
    const m = new LogMonitor({ spec, initial: ['InCS', 'OutCS'], initialRequests: [1] });
    const feed = (...lines: string[]) => log(...lines).map((rec, i) => m.feed(rec, i));
    feed('P0 exit-called', 'P0 exit-done', 'P0 entry-called 3', 'P0 entry-done', 'P0 crashed', 'P0 start');
    expect(feed('P1 entry-called 2', 'P1 entry-done').flat()).toEqual([]);
    expect(m.certain.inCS).toBe(2);
  });

  it('local: the violated neighbourhood is named', () => {
    const path = graphFromEdges(3, [
      [0, 1],
      [1, 2],
    ]);
    const spec = localSpec(path, [0, 0, 0], [1, 2, 2]);
    const r = checkCallLog(log(...cycle(0).slice(0, 2), ...cycle(1).slice(0, 2)), { spec });
    expect(r.violations[0]).toMatchObject({ kind: 'upper', index: 3, bound: 1, at: 0 });
  });
});
