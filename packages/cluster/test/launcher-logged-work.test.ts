import { describe, expect, it } from 'vitest';
import type { ClusterDeath } from '../src/launcher.js';
import { loggedWork } from '../src/launcher-logged-work.js';
import type { SharedLogRecord } from '../src/shared-log.js';

/** `P<p> <event> [round]` lines as shared-log records. */
function log(...lines: string[]): SharedLogRecord[] {
  return lines.map((line, t) => {
    const [p, e, r] = line.split(' ') as [string, SharedLogRecord['e'], string | undefined];
    return { p: Number(p.slice(1)), e, t, ...(r === undefined ? {} : { r: Number(r) }) };
  });
}

const death = (id: number, signal: NodeJS.Signals | null, code: number | null = null): ClusterDeath => ({
  id,
  signal,
  code,
  afterMs: 1000 + id,
});

describe('loggedWork: the entries and exits completed, counted from the shared log', () => {
  it('counts every member’s counted calls, a dead member’s up to its death, and locates the death', () => {
    const records = log(
      'P0 start',
      'P1 start',
      'P0 entry-called 1',
      'P0 entry-done 1',
      'P1 entry-called 1',
      'P0 exit-called 1',
      'P0 exit-done 1',
      'P1 entry-done 1',
      'P0 entry-called 2',
      'P1 crashed', // line 10: P1 died InCS after 1 entry, the cluster after 2
      'P0 entry-done 2',
      'P0 exit-called 2',
      'P0 exit-done 2',
      'P0 done',
      'P0 entry-called 3', // an uncounted cycle (rounds = 2): not counted
      'P0 entry-done 3',
    );
    const work = loggedWork(records, [death(1, 'SIGKILL')], 2, 2);
    expect(work).toEqual({
      entries: 3,
      exits: 2,
      entriesByProcess: [2, 1],
      exitsByProcess: [2, 0],
      deaths: [
        {
          id: 1,
          signal: 'SIGKILL',
          code: null,
          entries: 1,
          exits: 0,
          clusterEntries: 2,
          clusterExits: 1,
          step: 10,
          afterMs: 1001,
        },
      ],
    });
  });

  it('matches each death of a restarted member to its own crashed line, and one without a line to the end', () => {
    const records = log(
      'P0 entry-done 1',
      'P0 crashed', // line 2
      'P0 start',
      'P0 entry-done 1',
      'P0 entry-done 2',
      'P0 crashed', // line 6
      'P1 entry-done 1',
    );
    const deaths = [death(0, 'SIGKILL'), death(0, null, 1), death(1, null, 78)];
    const work = loggedWork(records, deaths, 2, 5);
    expect(work.entriesByProcess).toEqual([3, 1]);
    expect(work.deaths.map((d) => [d.id, d.signal, d.code, d.entries, d.clusterEntries, d.step])).toEqual([
      [0, 'SIGKILL', null, 1, 1, 2],
      [0, null, 1, 3, 3, 6],
      [1, null, 78, 1, 4, 0],
    ]);
  });

  it('an empty log counts nothing', () => {
    expect(loggedWork([], [], 3, 1)).toEqual({
      entries: 0,
      exits: 0,
      entriesByProcess: [0, 0, 0],
      exitsByProcess: [0, 0, 0],
      deaths: [],
    });
  });
});
