/*
 * The check of a chaos run (`runChaos`), from its shared log and its counters, as Jepsen checks
 * a lock service: the holders' CS intervals never overlap more than the algorithm allows (the
 * sound shared-log check of shared-log.ts, on its upper half), and no update is lost (the
 * read-modify-writes of launcher-chaos-rmw.ts).
 *
 * **Fencing** (issue 28, a CS with tenures): fencing violations, expired grants and stale
 * operations the fencing-aware counter rejected — chaos-fencing.ts.
 *
 * **Overlap.** `checkSharedLog` over the call records, the lower bound set to 0 for a global
 * (l,k)-CS: at least l processes InCS is not a safety property once processes crash (a member
 * killed InCS is InCS no more, and the others may not enter for it), so a dip below l is
 * reported apart (`lowerBoundDips`) and fails nothing. Sound: every overlap reported happened.
 *
 * **Lost updates**, per counter (slot) `s`. The completed writes are the `rmw` records of `s`
 * and the writes seen without a record (a token read by a later `rmw`, or in the final counter,
 * whose writer was killed after its write and before its record; and, for a value from 1 to the
 * final one that no known write wrote, a write whose writer and whose next writer were both
 * killed before their records). Each completed write adds 1
 * to the value it read, so with no update lost the final value is the number of completed
 * writes; `completed − final` writes were overwritten unseen (two holders read the same value:
 * `duplicateReads` names them). A `rmw-refused` (k > 1: a holder found all k slots claimed, so
 * k + 1 holders) is one update lost too: the holder in its CS could not make it.
 *
 * What is not counted: a holder killed in its CS before its write (its read-modify-write never
 * completed), and a write that landed but was overwritten before anyone read it and whose
 * writer was killed before its record — no trace of it is left; it needs a second holder in the
 * CS at the same time, which the overlap check is there for.
 */
import { readFileSync } from 'node:fs';
import { type CSState, globalSpec, type ProblemSpec } from '@critsec/core';
import type { ChaosLogRecord, CounterContent } from './launcher-chaos-rmw.js';
import { checkFencing, explainedByExpiry, type FencingCheck } from './chaos-fencing.js';
import { checkSharedLog, type SharedLogCheck, type SharedLogRecord } from './shared-log.js';

/** What the check reads: the shared log's records, the counters' final contents, the problem. */
export interface ChaosCheckInput {
  /** The call records of the shared log, in file order (`readSharedLog`). */
  readonly records: readonly SharedLogRecord[];
  /** The chaos records of the shared log, in file order ({@link readChaosRecords}). */
  readonly chaos: readonly ChaosLogRecord[];
  /** Each slot's counter at the end, by slot (k slots for k > 1, one for k = 1). */
  readonly counters: readonly CounterContent[];
  /** The problem the algorithm solves (its `k` or spec bounds the overlap). */
  readonly spec: ProblemSpec;
  /** The initial configuration (default every process OutCS). */
  readonly initial?: readonly CSState[];
  /** Wall-clock ms of each restart, in order (to count the entries completed after each). */
  readonly restartTimes?: readonly number[];
}

/** Entries completed after one restart, until the next kill or the end of the run. */
export interface EntriesAfterRestart {
  /** The restart's wall-clock time, ms since the epoch. */
  readonly at: number;
  /** Entries completed in the whole cluster from the restart to the next kill (or the end). */
  readonly entries: number;
}

/** The result of {@link checkChaos}; its fencing part (issue 28) is zero for a CS without tenures. */
export interface ChaosCheck extends FencingCheck {
  /**
   * Overlaps beyond the upper bound the shared-log check proved (0 when safe), but for those an
   * expired grant explains ({@link expiredOverlaps}).
   */
  readonly safetyViolations: number;
  /**
   * Overlaps (log records at which one held) explained by an expired grant: a holder whose tenure
   * expired (a pause past the ttl) overlapping the next holder — allowed with time bounds, whose
   * exclusion holds on effects (chaos-fencing.ts); 0 without tenures.
   */
  readonly expiredOverlaps: number;
  /** The first of them, in words (`null` when none). */
  readonly firstViolation: string | null;
  /** Configurations with fewer than l processes possibly InCS (information only: no safety property under crashes). */
  readonly lowerBoundDips: number;
  /** Records out of order in the shared log (a member's bug or a torn log), the first few. */
  readonly sequenceErrors: readonly string[];
  /** Updates lost: completed writes missing from the final counters, plus refused ones (k > 1). */
  readonly lostUpdates: number;
  /** Completed read-modify-writes (logged, and seen without a record). */
  readonly completedRmws: number;
  /** Of them, writes seen without a record (their writer was killed after its write). */
  readonly unloggedWrites: number;
  /** Tokens read by more than one `rmw` (`initial:<slot>` for a counter's initial content). */
  readonly duplicateReads: readonly string[];
  /** `rmw` records whose write is not its read plus one, or a slot out of range (a broken workload). */
  readonly malformedRmws: number;
  /** Entries completed (`entry-done` records). */
  readonly entries: number;
  /** The longest interval with no entry completed in the whole cluster, between the first and the last, ms. */
  readonly longestStallMs: number;
  /** Entries completed after each restart, in order of {@link ChaosCheckInput.restartTimes}. */
  readonly entriesAfterEachRestart: readonly EntriesAfterRestart[];
  /** The shared-log check itself. */
  readonly log: SharedLogCheck;
}

const CHAOS_EVENTS: ReadonlySet<string> = new Set([
  'rmw',
  'rmw-refused',
  'rmw-fenced',
  'tenure',
  'tenure-late',
  'tenure-expired',
]);

/** The chaos records (`rmw`, `rmw-refused`, `rmw-fenced`, `tenure*`) of a shared log file, in file order. */
export function readChaosRecords(path: string): ChaosLogRecord[] {
  const out: ChaosLogRecord[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('"e":"rmw') && !line.includes('"e":"tenure')) continue;
    try {
      const r = JSON.parse(line) as ChaosLogRecord;
      if (CHAOS_EVENTS.has(r.e)) out.push(r);
    } catch {
      // a torn line: readSharedLog counts it
    }
  }
  return out;
}

/** The overlap part: the upper bound only for a global (l,k)-CS. */
function overlap(input: ChaosCheckInput): { log: SharedLogCheck; upper: number; lower: number } {
  const { spec } = input;
  const upperOnly = spec.kind === 'global' ? globalSpec(0, spec.k, spec.n) : spec;
  const log = checkSharedLog(input.records, {
    n: spec.n,
    spec: upperOnly,
    ...(input.initial === undefined ? {} : { initial: input.initial }),
  });
  const upper = log.violations.filter((v) => v.kind === 'upper').length;
  const lowerLog =
    spec.kind === 'global' && spec.l > 0
      ? checkSharedLog(input.records, {
          n: spec.n,
          spec,
          ...(input.initial === undefined ? {} : { initial: input.initial }),
        })
      : undefined;
  const lower = lowerLog?.violations.filter((v) => v.kind === 'lower').length ?? 0;
  // a global spec's violations are all upper ones: their exact count
  return { log, upper: spec.kind === 'global' ? log.violationCount : upper, lower };
}

/** The lost-update part for one counter (see the module comment). */
export interface SlotUpdates {
  /** Completed writes missing from the final counter. */
  readonly lost: number;
  /** Completed read-modify-writes (logged, and seen without a record). */
  readonly completed: number;
  /** Of them, writes seen without a record. */
  readonly unlogged: number;
  /** Tokens read by more than one `rmw`. */
  readonly duplicates: readonly string[];
  /** `rmw` records whose write is not its read plus one, or a final value beyond the writes. */
  readonly malformed: number;
}

/**
 * The lost updates of counter (slot) `s` from the `rmw` records of `chaos` and its final content
 * (see the module comment) — per counter, so a run with a counter per lock name
 * (`critsec chaos locks`) checks each name apart.
 */
export function slotUpdates(chaos: readonly ChaosLogRecord[], s: number, final: CounterContent): SlotUpdates {
  let malformed = 0;
  const duplicates: string[] = [];
  const logged = new Set<string>();
  const reads = new Map<string, number>();
  // every token read or left in the counter, with the value its write wrote
  const seen = new Map<string, number>();
  // the values a completed write is known to have written
  const written = new Set<number>();
  for (const r of chaos) {
    if (r.e !== 'rmw' || r.s !== s) continue;
    if (r.wrote.value !== r.read.value + 1) malformed++;
    logged.add(r.wrote.by);
    written.add(r.wrote.value);
    const key = r.read.by ?? `initial:${s}`;
    reads.set(key, (reads.get(key) ?? 0) + 1);
    if (r.read.by !== null) seen.set(r.read.by, r.read.value);
  }
  if (final.by !== null) seen.set(final.by, final.value);
  let unlogged = 0;
  for (const [token, value] of seen) {
    if (logged.has(token)) continue;
    unlogged++;
    written.add(value);
  }
  // Writes are +1 steps from 0, so every value 1 … final was written by some completed write.
  // A value nobody is known to have written was written by a write whose record is missing and
  // whose token nobody read: the writer was killed before its record, and so was the next one
  // (its record, which would have named the token it read, is missing too).
  for (let v = 1; v <= final.value; v++) if (!written.has(v)) unlogged++;
  for (const [key, count] of reads) if (count > 1) duplicates.push(key);
  const completed = logged.size + unlogged;
  if (final.value > completed) malformed++;
  return { lost: Math.max(0, completed - final.value), completed, unlogged, duplicates, malformed };
}

/** The lost-update part (see the module comment). */
function updates(input: ChaosCheckInput): {
  lost: number;
  completed: number;
  unlogged: number;
  duplicates: string[];
  malformed: number;
} {
  const slots = input.counters.length;
  let lost = 0;
  let completed = 0;
  let unlogged = 0;
  let malformed = 0;
  const duplicates: string[] = [];
  for (let s = 0; s < slots; s++) {
    const u = slotUpdates(input.chaos, s, input.counters[s]!);
    lost += u.lost;
    completed += u.completed;
    unlogged += u.unlogged;
    malformed += u.malformed;
    duplicates.push(...u.duplicates);
  }
  malformed += input.chaos.filter((r) => r.e === 'rmw' && !(r.s >= 0 && r.s < slots)).length;
  lost += input.chaos.filter((r) => r.e === 'rmw-refused').length;
  return { lost, completed, unlogged, duplicates, malformed };
}

/** The longest gap between consecutive completed entries, ms, and the entries after each restart. */
function liveness(input: ChaosCheckInput): {
  longestStallMs: number;
  after: EntriesAfterRestart[];
} {
  const times = input.records.filter((r) => r.e === 'entry-done').map((r) => r.t);
  let longestStallMs = 0;
  for (let i = 1; i < times.length; i++) longestStallMs = Math.max(longestStallMs, times[i]! - times[i - 1]!);
  const kills = input.records.filter((r) => r.e === 'crashed').map((r) => r.t);
  const after = (input.restartTimes ?? []).map((at) => {
    const nextKill = kills.find((t) => t > at) ?? Number.POSITIVE_INFINITY;
    return { at, entries: times.filter((t) => t >= at && t <= nextKill).length };
  });
  return { longestStallMs, after };
}

/**
 * Checks a chaos run (see the module comment): overlaps beyond the upper bound, lost updates,
 * and the evidence of liveness (the longest stall, the entries after each restart).
 * @throws ConfigurationError (from `checkSharedLog`) for an initial configuration of the wrong length.
 */
export function checkChaos(input: ChaosCheckInput): ChaosCheck {
  const { log, upper, lower } = overlap(input);
  const u = updates(input);
  const { longestStallMs, after } = liveness(input);
  // with tenures, an overlap a holder's expired grant explains is no violation on effects
  const explained = log.violations.filter(
    (v) => v.kind === 'upper' && explainedByExpiry(input.records, input.chaos, v),
  );
  const first = log.violations.find((v) => v.kind === 'upper' && !explained.includes(v));
  return {
    ...checkFencing(input.chaos),
    expiredOverlaps: explained.length,
    safetyViolations: upper - explained.length,
    firstViolation:
      first === undefined
        ? null
        : `${first.message} (P${first.processes.join(', P')} certainly InCS at shared-log record ${first.index + 1})`,
    lowerBoundDips: lower,
    sequenceErrors: log.sequenceErrors.slice(0, 10),
    lostUpdates: u.lost,
    completedRmws: u.completed,
    unloggedWrites: u.unlogged,
    duplicateReads: u.duplicates,
    malformedRmws: u.malformed,
    entries: log.entries.reduce((a, b) => a + b, 0),
    longestStallMs,
    entriesAfterEachRestart: after,
    log,
  };
}
