/*
 * The work a cluster run did, counted from the shared log (`critsec cluster`'s entries and exits
 * completed): every member appends `entry-done` / `exit-done` just after a call resolved, so the
 * log holds the work of every member — the survivors' and a dead member's up to its death —
 * when the members' reports are missing because the run ended early (a member died, and the
 * launcher ended the others). Each death the launcher saw is located at its `crashed` line.
 */
import type { ProcessId } from '@critsec/core';
import type { ClusterDeath } from './launcher.js';
import type { SharedLogRecord } from './shared-log.js';

/** A member that died during the run, and how far the run had got when it did. */
export interface MemberDeath {
  /** The member's process id. */
  readonly id: ProcessId;
  /** The signal that ended it, or `null` when it exited by itself. */
  readonly signal: string | null;
  /** Its exit code, or `null` when a signal ended it. */
  readonly code: number | null;
  /** Its own counted entries completed before its `crashed` line. */
  readonly entries: number;
  /** Its own counted exits completed before its `crashed` line. */
  readonly exits: number;
  /** Counted entries completed by the whole cluster before its `crashed` line. */
  readonly clusterEntries: number;
  /** Counted exits completed by the whole cluster before its `crashed` line. */
  readonly clusterExits: number;
  /** Its `crashed` line in the shared log (1-based); 0 when the line is missing (counts then run to the log's end). */
  readonly step: number;
  /** Wall-clock time from the launch to the launcher seeing it die, ms. */
  readonly afterMs: number;
}

/** The counted entries and exits completed, from the shared log. */
export interface LoggedWork {
  /** Counted entries completed by every member (n · rounds on success). */
  readonly entries: number;
  /** Counted exits completed by every member (n · rounds on success). */
  readonly exits: number;
  /** Counted entries completed, by process id. */
  readonly entriesByProcess: readonly number[];
  /** Counted exits completed, by process id. */
  readonly exitsByProcess: readonly number[];
  /** The members that died during the run, in the order the launcher saw them. */
  readonly deaths: readonly MemberDeath[];
}

/**
 * Counts the counted calls completed in `records` — `entry-done` and `exit-done` of rounds
 * 1 … `rounds` (finished members' uncounted cycles log later rounds) — over `n` processes, and
 * locates each of `deaths` at the next `crashed` line of its process (a restarted member's
 * counts add up over its incarnations).
 */
export function loggedWork(
  records: readonly SharedLogRecord[],
  deaths: readonly ClusterDeath[],
  n: number,
  rounds: number,
): LoggedWork {
  const entries = new Array<number>(n).fill(0);
  const exits = new Array<number>(n).fill(0);
  let allEntries = 0;
  let allExits = 0;
  const pending = deaths.map((d, i) => ({ d, i }));
  const located: (MemberDeath | undefined)[] = deaths.map(() => undefined);
  const locate = (d: ClusterDeath, i: number, step: number) => {
    located[i] = {
      id: d.id,
      signal: d.signal,
      code: d.code,
      entries: entries[d.id] ?? 0,
      exits: exits[d.id] ?? 0,
      clusterEntries: allEntries,
      clusterExits: allExits,
      step,
      afterMs: d.afterMs,
    };
  };
  records.forEach((rec, index) => {
    const counted = rec.r !== undefined && rec.r >= 1 && rec.r <= rounds && rec.p < n;
    if (counted && rec.e === 'entry-done') {
      entries[rec.p]!++;
      allEntries++;
    } else if (counted && rec.e === 'exit-done') {
      exits[rec.p]!++;
      allExits++;
    } else if (rec.e === 'crashed') {
      const at = pending.findIndex(({ d }) => d.id === rec.p);
      if (at >= 0) {
        const [{ d, i }] = pending.splice(at, 1) as [{ d: ClusterDeath; i: number }];
        locate(d, i, index + 1);
      }
    }
  });
  for (const { d, i } of pending) locate(d, i, 0);
  return {
    entries: allEntries,
    exits: allExits,
    entriesByProcess: entries,
    exitsByProcess: exits,
    deaths: located as MemberDeath[],
  };
}
