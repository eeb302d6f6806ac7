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
 *   `crashed` when it sees a process die of a signal.
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
 * next incarnation's `start` line, which puts it back in its initial state (conservative for l).
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import {
  ConfigurationError,
  type CSState,
  checkConfiguration,
  globalSpec,
  type ProblemSpec,
  type ProcessId,
} from '@critsec/core';

/** An event of the shared log. */
export type SharedLogEvent =
  | 'start'
  | 'entry-called'
  | 'entry-done'
  | 'exit-called'
  | 'exit-done'
  | 'entry-aborted'
  | 'exit-aborted'
  | 'done'
  | 'crashed';

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
  /** For `crashed`: the signal. */
  readonly sig?: string;
  /** For `entry-called` of an object that takes a request: the request (units h, a group). */
  readonly q?: unknown;
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

  constructor(path: string, options: { process: ProcessId; incarnation?: string }) {
    this.#fd = openSync(path, 'a');
    this.#p = options.process;
    this.#inc = options.incarnation;
  }

  /** Appends `event` (with round `r`, and for `entry-called` the request `q`, if any) now. */
  append(e: SharedLogEvent, r?: number, q?: unknown): void {
    if (this.#closed) return;
    const record: SharedLogRecord = {
      p: this.#p,
      e,
      ...(r === undefined ? {} : { r }),
      ...(this.#inc === undefined ? {} : { inc: this.#inc }),
      t: Date.now(),
      ...(q === undefined ? {} : { q }),
    };
    writeSync(this.#fd, encodeRecord(record));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}

/** The records of a shared log file, in file order, and the count of unreadable lines. */
export function readSharedLog(path: string): { records: SharedLogRecord[]; malformed: number } {
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
  readonly n: number;
  /** The global bounds (used when `spec` is not given). */
  readonly l?: number;
  readonly k?: number;
  /** The problem, when it is not a global (l,k)-CS given by `l` and `k`; `spec.n` must be `n`. */
  readonly spec?: ProblemSpec;
  /** The initial configuration (default: every process OutCS). */
  readonly initial?: readonly CSState[];
  /** The requests of the processes initially InCS (h-out-of-k, group specs). */
  readonly initialRequests?: readonly unknown[];
}

/** A violation the check proved, at a line of the log. */
export interface SharedLogViolation {
  /**
   * `'upper'`: the processes certainly InCS already break the spec (more than k, more than kᵢ
   * around `at`, more than k units, two groups); `'lower'`: the processes possibly InCS are
   * already too few (fewer than l, fewer than lᵢ around `at`).
   */
  readonly kind: 'upper' | 'lower';
  /** 0-based index of the record after which it holds. */
  readonly index: number;
  /** `|U|` for an upper, `|O|` for a lower violation. */
  readonly count: number;
  /** The bound broken: k or l (global), kᵢ or lᵢ of `at` (local), k units (h-out-of-k), 1 group (group). */
  readonly bound: number;
  /** The processes counted. */
  readonly processes: readonly ProcessId[];
  /** What the spec's check said, e.g. `4 units held InCS, more than k = 3`. */
  readonly message: string;
  /** The process whose closed neighbourhood is violated (local specs). */
  readonly at?: ProcessId;
}

/** The result of {@link checkSharedLog}. */
export interface SharedLogCheck {
  /** No violation and no out-of-order event. */
  readonly ok: boolean;
  readonly records: number;
  /** Violations found (the first 100). */
  readonly violations: readonly SharedLogViolation[];
  /** Total number of records after which a bound was broken. */
  readonly violationCount: number;
  /** The largest `|U|` seen (processes certainly InCS at once). */
  readonly maxCertainlyInCS: number;
  /** The smallest `|O|` seen (processes possibly InCS at once). */
  readonly minPossiblyInCS: number;
  /** `entry-done` records per process (all incarnations). */
  readonly entries: readonly number[];
  /** Events out of the per-process order entry-called → entry-done → exit-called → exit-done (the first 100). */
  readonly sequenceErrors: readonly string[];
}

type Phase = 'out' | 'entering' | 'in' | 'exiting' | 'crashed-out' | 'crashed-maybe';

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

function boundOf(spec: ProblemSpec, kind: 'upper' | 'lower', at: ProcessId | undefined): number {
  switch (spec.kind) {
    case 'global':
      return kind === 'upper' ? spec.k : spec.l;
    case 'local':
      return (kind === 'upper' ? spec.k : spec.l)[at ?? 0]!;
    case 'h-out-of-k':
      return spec.k;
    case 'group':
      return 1;
  }
}

/**
 * Checks a shared log against a problem's safety condition (`l ≤ |InCS| ≤ k`, or `spec`) with
 * the under/over-approximations described in the module comment: the upper half of the
 * condition on the processes certainly InCS, the lower half on those possibly InCS. Sound:
 * every violation reported happened.
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
  const start = (p: number): Phase => (initial[p] === 'InCS' ? 'in' : 'out');
  const phase: Phase[] = Array.from({ length: n }, (_, p) => start(p));
  const requests: unknown[] = Array.from({ length: n }, (_, p) => bounds.initialRequests?.[p]);
  const entries = new Array<number>(n).fill(0);
  const violations: SharedLogViolation[] = [];
  const sequenceErrors: string[] = [];
  let violationCount = 0;
  let maxU = 0;
  let minO = n;

  const inU = (ph: Phase) => ph === 'in';
  const inO = (ph: Phase) => ph === 'entering' || ph === 'in' || ph === 'exiting' || ph === 'crashed-maybe';
  const evaluate = (index: number) => {
    const U: ProcessId[] = [];
    const O: ProcessId[] = [];
    phase.forEach((ph, p) => {
      if (inU(ph)) U.push(p);
      if (inO(ph)) O.push(p);
    });
    maxU = Math.max(maxU, U.length);
    minO = Math.min(minO, O.length);
    const states = (set: readonly ProcessId[]) => {
      const s = new Array<CSState>(n).fill('OutCS');
      for (const p of set) s[p] = 'InCS';
      return s;
    };
    for (const [kind, set] of [
      ['upper', U],
      ['lower', O],
    ] as const) {
      const v = checkConfiguration(spec, states(set), requests, kind);
      if (v === null) continue;
      violationCount++;
      if (violations.length < 100) {
        violations.push({
          kind,
          index,
          count: set.length,
          bound: boundOf(spec, kind, v.at),
          processes: set,
          message: v.message,
          ...(v.at === undefined ? {} : { at: v.at }),
        });
      }
    }
  };
  const expectPhase = (index: number, rec: SharedLogRecord, want: Phase, next: Phase) => {
    const p = rec.p;
    if (phase[p] !== want && sequenceErrors.length < 100) {
      sequenceErrors.push(`record ${index}: P${p} ${rec.e} while ${phase[p]} (expected ${want})`);
    }
    phase[p] = next;
  };

  evaluate(-1);
  records.forEach((rec, index) => {
    const p = rec.p;
    if (!(p >= 0 && p < n)) {
      if (sequenceErrors.length < 100) sequenceErrors.push(`record ${index}: unknown process ${p}`);
      return;
    }
    switch (rec.e) {
      case 'entry-called':
        expectPhase(index, rec, 'out', 'entering');
        requests[p] = rec.q;
        break;
      case 'entry-done':
        expectPhase(index, rec, 'entering', 'in');
        entries[p]!++;
        break;
      case 'exit-called':
        expectPhase(index, rec, 'in', 'exiting');
        break;
      case 'exit-done':
        expectPhase(index, rec, 'exiting', 'out');
        break;
      case 'entry-aborted':
        expectPhase(index, rec, 'entering', 'out');
        break;
      case 'exit-aborted':
        expectPhase(index, rec, 'exiting', 'in');
        break;
      case 'crashed':
        phase[p] = inO(phase[p]!) ? 'crashed-maybe' : 'crashed-out';
        break;
      case 'start':
        // A new incarnation begins in the initial state (a first start changes nothing).
        phase[p] = start(p);
        requests[p] = bounds.initialRequests?.[p];
        break;
      case 'done':
        break;
    }
    evaluate(index);
  });
  return {
    ok: violationCount === 0 && sequenceErrors.length === 0,
    records: records.length,
    violations,
    violationCount,
    maxCertainlyInCS: maxU,
    minPossiblyInCS: minO,
    entries,
    sequenceErrors,
  };
}
