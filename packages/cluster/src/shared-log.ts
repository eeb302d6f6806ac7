/**
 * The shared log of a cluster of OS processes on one machine, and the sound cross-process
 * safety check over it (issue #6; global-CS paper, Def. 1 and the (l,k) bounds).
 *
 * Every process appends one JSON line per event to the same file, opened with `O_APPEND`:
 * - `entry-called` just **before** calling `entry()`, `entry-done` just **after** it resolved;
 * - `exit-called` just **before** calling `exit()`, `exit-done` just **after** it resolved;
 * - `entry-aborted` / `exit-aborted` just after a call rejected with `AbortError` (the CS object
 *   contract: an aborted call leaves the state unchanged);
 * - `start` when an incarnation starts, `done` when it finished its rounds; the launcher appends
 *   `crashed` when it sees a process die (a signal, or an exit without its report or with a code
 *   other than 0); a member restarted from its store (`--recover`) appends `recovering` instead
 *   of `start`, and `recovered` with its CS object's state `s` once `recover()` resolved.
 *
 * Why one `O_APPEND` file gives a real-time order: on a local file system, `write(2)` on an
 * `O_APPEND` descriptor moves the offset to the end and writes as one atomic step, so each
 * (small, single-`write`) line lands whole, and the order of lines in the file is the order in
 * which the writes took effect — a total order consistent with real time across processes.
 *
 * Why the check is sound (it never reports a violation that did not happen). Let line `j` take
 * effect at instant `t_j`.
 * - Under-approximation `U(j)`: processes whose last record at line `j` is `entry-done`. Such a
 *   process wrote `entry-done` after its state became InCS and will write `exit-called` before
 *   its state can become OutCS again, so it is InCS throughout `[t(entry-done), t(exit-called)]`,
 *   which contains `t_j`. Hence `U(j) ⊆ InCS(t_j)`, and `|U(j)| > k` proves a real violation of
 *   the upper bound k.
 * - Over-approximation `O(j)`: processes between `entry-called` and `exit-done` (or initially
 *   InCS and not yet at `exit-done`). A process InCS at `t_j` became InCS after it wrote
 *   `entry-called` and will write `exit-done` only after it is OutCS again, so
 *   `InCS(t_j) ⊆ O(j)`, and `|O(j)| < l` proves a real violation of the lower bound l.
 * An aborted call ends the interval it opened: after `entry-aborted` the process is OutCS until
 * its next `entry-called` (it leaves `O`); after `exit-aborted` it is InCS until its next
 * `exit-called` (it is back in `U`).
 * Checking at every line suffices for these counts, because `U` and `O` only change at lines.
 * The check is not complete: an overlap shorter than the logging gap can go unseen.
 *
 * Crashes (outside the papers' model, which assumes none): a `crashed` process leaves `U` at the
 * `crashed` line (conservative for k: a smaller `U`), and keeps its `O` membership until its
 * next incarnation's `start` line, which puts it back in its initial state (conservative for l),
 * or, for a recovered incarnation, until its `recovered` line, which puts it in the state `s` its
 * object is in from then until its next call (`recovering` changes nothing).
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import {
  ConfigurationError,
  type CSState,
  globalSpec,
  type ProblemSpec,
  type ProcessId,
} from '@critsec/core';
import { type CallLogCheck, type CallLogEvent, checkCallLog, type LogViolation } from '@critsec/harness';

/** An event of the shared log: the events of a call log that `checkCallLog` reads. */
export type SharedLogEvent = CallLogEvent;

/** One line of the shared log. */
export interface SharedLogRecord {
  /** The process. */
  readonly p: ProcessId;
  /** The event. */
  readonly e: SharedLogEvent;
  /** The round (1-based) of a CS event. */
  readonly r?: number;
  /** The incarnation (transport session id) that wrote it. */
  readonly inc?: string;
  /** Wall-clock milliseconds (informational; the order of lines is what counts). */
  readonly t: number;
  /** For `crashed`: the signal that ended the process. */
  readonly sig?: string;
  /** For `crashed` without a signal: the process's exit code. */
  readonly code?: number;
  /** For `entry-called` of an object that takes a request: the request (units h, a group). */
  readonly q?: unknown;
  /** For `recovered`: the state the restarted incarnation's CS object is in once `recover()` resolved. */
  readonly s?: CSState;
}

const EVENTS: ReadonlySet<string> = new Set([
  'start',
  'entry-called',
  'entry-done',
  'exit-called',
  'exit-done',
  'entry-aborted',
  'exit-aborted',
  'done',
  'crashed',
  'recovering',
  'recovered',
]);
/** Lines are kept far below PIPE_BUF / a page so one `write(2)` stays whole. */
const MAX_LINE_BYTES = 1024;

/** Appends one record as one `O_APPEND` write (opens and closes the file). */
export function appendSharedLogRecord(path: string, record: SharedLogRecord): void {
  const fd = openSync(path, 'a');
  try {
    writeSync(fd, encodeRecord(record));
  } finally {
    closeSync(fd);
  }
}

function encodeRecord(record: SharedLogRecord): string {
  const line = `${JSON.stringify(record)}\n`;
  if (Buffer.byteLength(line) > MAX_LINE_BYTES) {
    throw new ConfigurationError(`shared log record over ${MAX_LINE_BYTES} bytes: ${line.slice(0, 80)}…`);
  }
  return line;
}

/** A process's writer of the shared log: one descriptor opened with `O_APPEND`, one `write` per record. */
export class SharedLogWriter {
  readonly #fd: number;
  readonly #p: ProcessId;
  readonly #inc: string | undefined;
  #closed = false;

  /** Opens `path` for appending (O_APPEND) as process `options.process`, incarnation `options.incarnation`. */
  constructor(path: string, options: { process: ProcessId; incarnation?: string }) {
    this.#fd = openSync(path, 'a');
    this.#p = options.process;
    this.#inc = options.incarnation;
  }

  /**
   * Appends `event` (with round `r`, for `entry-called` the request `q`, for `recovered` the
   * state `s`, if any) now.
   */
  append(e: SharedLogEvent, r?: number, q?: unknown, s?: CSState): void {
    if (this.#closed) return;
    const record: SharedLogRecord = {
      p: this.#p,
      e,
      ...(r === undefined ? {} : { r }),
      ...(this.#inc === undefined ? {} : { inc: this.#inc }),
      t: Date.now(),
      ...(q === undefined ? {} : { q }),
      ...(s === undefined ? {} : { s }),
    };
    writeSync(this.#fd, encodeRecord(record));
  }

  /** Closes the file; later calls do nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}

/** The records of a shared log file, in file order, and the count of unreadable lines. */
export function readSharedLog(path: string): {
  /** The readable records, in file order. */
  records: SharedLogRecord[];
  /** Lines that are not a record (a torn last line after a crash, say). */
  malformed: number;
} {
  const records: SharedLogRecord[] = [];
  let malformed = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.length === 0) continue;
    try {
      const r = JSON.parse(line) as SharedLogRecord;
      if (Number.isSafeInteger(r.p) && r.p >= 0 && EVENTS.has(r.e)) records.push(r);
      else malformed++;
    } catch {
      malformed++;
    }
  }
  return { records, malformed };
}

/**
 * What to check: the global bounds `l ≤ |InCS| ≤ k` at all times (mutual exclusion is l = 0,
 * k = 1), or any problem spec of `@critsec/core` (`spec`: local (lᵢ,kᵢ)-CS, h-out-of-k, group
 * mutual exclusion; the requests come from the `q` of `entry-called` records).
 */
export interface SharedLogBounds {
  /** Number of processes. */
  readonly n: number;
  /** The global bounds (used when `spec` is not given). */
  readonly l?: number;
  /** The global upper bound k (with `l`; default 1). */
  readonly k?: number;
  /** The problem, when it is not a global (l,k)-CS given by `l` and `k`; `spec.n` must be `n`. */
  readonly spec?: ProblemSpec;
  /** The initial configuration (default: every process OutCS). */
  readonly initial?: readonly CSState[];
  /** The requests of the processes initially InCS (h-out-of-k, group specs). */
  readonly initialRequests?: readonly unknown[];
}

/** A violation the check proved, at a line of the log (`LogViolation` of @critsec/testing). */
export type SharedLogViolation = LogViolation;

/** The result of {@link checkSharedLog} (`CallLogCheck` of @critsec/testing). */
export type SharedLogCheck = CallLogCheck;

function specOf(bounds: SharedLogBounds): ProblemSpec {
  const { n, l, k, spec } = bounds;
  if (spec !== undefined) {
    if (spec.n !== n) throw new ConfigurationError(`checkSharedLog: spec.n = ${spec.n}, n = ${n}`);
    return spec;
  }
  if (
    !(
      Number.isSafeInteger(n) &&
      n >= 1 &&
      Number.isSafeInteger(l) &&
      Number.isSafeInteger(k) &&
      0 <= l! &&
      l! < k! &&
      k! <= n
    )
  ) {
    throw new ConfigurationError(`checkSharedLog: need integers 0 ≤ l < k ≤ n, got l=${l}, k=${k}, n=${n}`);
  }
  return globalSpec(l!, k!, n);
}

/**
 * Checks a shared log against a problem's safety condition (`l ≤ |InCS| ≤ k`, or `spec`) with
 * the under/over-approximations described in the module comment: the upper half of the
 * condition on the processes certainly InCS, the lower half on those possibly InCS. Sound:
 * every violation reported happened. The check itself is `checkCallLog` of @critsec/testing
 * (two safety monitors fed from the log); this validates the bounds and reads the records.
 *
 * @throws ConfigurationError for bounds that are not `0 ≤ l < k ≤ n`, a `spec` for another n,
 * or an initial configuration of the wrong length.
 */
export function checkSharedLog(records: readonly SharedLogRecord[], bounds: SharedLogBounds): SharedLogCheck {
  const { n } = bounds;
  const spec = specOf(bounds);
  const initial = bounds.initial ?? Array.from({ length: n }, (): CSState => 'OutCS');
  if (initial.length !== n) {
    throw new ConfigurationError(
      `checkSharedLog: the initial configuration has ${initial.length} states, n = ${n}`,
    );
  }
  return checkCallLog(records, {
    spec,
    initial,
    ...(bounds.initialRequests === undefined ? {} : { initialRequests: bounds.initialRequests }),
  });
}
