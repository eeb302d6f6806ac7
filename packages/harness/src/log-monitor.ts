/*
 * The safety check of a log of call records (global-CS paper, Def. 1 and the (l,k) bounds; issue
 * #6's shared log of real processes). A process appends `entry-called` just before `entry()`,
 * `entry-done` just after it resolved, likewise `exit-called` / `exit-done`, `entry-aborted` /
 * `exit-aborted` after a withdrawn call (the state is unchanged), `start` when an incarnation
 * starts (in its initial state), `done` after its rounds; `crashed` when it died; an incarnation
 * restarted from its durable state (crash recovery, issue 27) appends `recovering` instead of
 * `start`, then `recovered` with the state `s` its object is in once `recover()` resolved (a
 * recovered (l,k)-GCS process may still be InCS: it stays there until its next call). The order
 * must be consistent with real time (one `O_APPEND` file on one machine).
 *
 * From the log alone a process's state is known only up to the call in flight, so two
 * {@link SafetyMonitor}s are fed: one with the processes *certainly* InCS (`U`: last record
 * `entry-done`, or `exit-aborted`), checked on the upper half of the condition, one with those
 * *possibly* InCS (`O`: from `entry-called` to `exit-done`), checked on the lower half.
 * `U ⊆ InCS(t) ⊆ O` at each record, so every violation reported happened (sound, not complete:
 * an overlap shorter than the logging gap can go unseen). A `crashed` process leaves `U` at once
 * and stays in `O` (if it was) until its next `start`.
 */
import type { CSState, ProblemSpec, ProcessId } from '@critsec/core';
import { SafetyMonitor } from './monitor.js';

/** An event of a call log. */
export type CallLogEvent =
  | 'start'
  | 'entry-called'
  | 'entry-done'
  | 'exit-called'
  | 'exit-done'
  | 'entry-aborted'
  | 'exit-aborted'
  | 'done'
  | 'crashed'
  | 'recovering'
  | 'recovered';

/** One record of a call log (other fields are ignored). */
export interface CallLogRecord {
  /** The process. */
  readonly p: ProcessId;
  /** The event. */
  readonly e: CallLogEvent;
  /** For `entry-called` of an object that takes a request: the request (units h, a group). */
  readonly q?: unknown;
  /** For `recovered`: the state the incarnation's CS object is in once its `recover()` resolved. */
  readonly s?: CSState;
}

/** A violation a {@link LogMonitor} proved, after a record. */
export interface LogViolation {
  /** `'upper'`: the processes certainly InCS already break the spec; `'lower'`: those possibly InCS are too few. */
  readonly kind: 'upper' | 'lower';
  /** 0-based index of the record after which it holds (−1: the initial configuration). */
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

/** Settings of a {@link LogMonitor}. */
export interface LogMonitorOptions {
  /** The problem checked. */
  readonly spec: ProblemSpec;
  /** The initial configuration (default: every process OutCS); `spec.n` states. */
  readonly initial?: readonly CSState[];
  /** The requests of the processes initially InCS. */
  readonly initialRequests?: readonly unknown[];
  /** Violations and sequence errors kept (default 100; all are counted). */
  readonly keep?: number;
}

/** What a log check found. */
export interface CallLogCheck {
  /** No violation and no out-of-order event. */
  readonly ok: boolean;
  /** Records read. */
  readonly records: number;
  /** Violations found (the first `keep`). */
  readonly violations: readonly LogViolation[];
  /** Number of (record, bound) pairs after which the bound was broken. */
  readonly violationCount: number;
  /** The largest `|U|` seen (processes certainly InCS at once). */
  readonly maxCertainlyInCS: number;
  /** The smallest `|O|` seen (processes possibly InCS at once). */
  readonly minPossiblyInCS: number;
  /** Completed entries per process. */
  readonly entries: readonly number[];
  /** Events out of order (the first `keep`), e.g. `record 7: P2 exit-done while in (expected exiting)`. */
  readonly sequenceErrors: readonly string[];
}

type Phase = 'out' | 'entering' | 'in' | 'exiting' | 'crashed-out' | 'crashed-maybe';

/** Expected phase and next phase of each call event. */
const STEPS: Partial<Record<CallLogEvent, readonly [Phase, Phase]>> = {
  'entry-called': ['out', 'entering'],
  'entry-done': ['entering', 'in'],
  'exit-called': ['in', 'exiting'],
  'exit-done': ['exiting', 'out'],
  'entry-aborted': ['entering', 'out'],
  'exit-aborted': ['exiting', 'in'],
};

const inU = (ph: Phase) => ph === 'in';
const inO = (ph: Phase) => ph === 'entering' || ph === 'in' || ph === 'exiting' || ph === 'crashed-maybe';

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
 * A safety monitor fed from a log of call records (see the module comment): {@link feed} each
 * record in log order, then read {@link result}. The whole configuration is checked after every
 * record, so a lasting violation counts at every record it lasts.
 */
export class LogMonitor {
  /** The processes certainly InCS (upper half of the condition). */
  readonly certain: SafetyMonitor;
  /** The processes possibly InCS (lower half). */
  readonly possible: SafetyMonitor;
  readonly #spec: ProblemSpec;
  readonly #initial: readonly CSState[];
  readonly #initialRequests: readonly unknown[] | undefined;
  readonly #keep: number;
  readonly #phase: Phase[];
  /** The request of each process's last `entry-called`, and the one it last entered the CS with. */
  readonly #asked: unknown[];
  readonly #held: unknown[];
  readonly #entries: number[];
  readonly #violations: LogViolation[] = [];
  readonly #sequenceErrors: string[] = [];
  #violationCount = 0;
  #records = 0;
  #maxU = 0;
  #minO: number;

  /** Checks the initial configuration (record index −1) at once. */
  constructor(options: LogMonitorOptions) {
    const { spec } = options;
    const n = spec.n;
    this.#spec = spec;
    this.#initial = options.initial ?? Array.from({ length: n }, (): CSState => 'OutCS');
    this.#initialRequests = options.initialRequests;
    this.#keep = options.keep ?? 100;
    const requests = Array.from({ length: n }, (_, p) => options.initialRequests?.[p]);
    this.certain = new SafetyMonitor(spec, this.#initial, requests, { bound: 'upper' });
    this.possible = new SafetyMonitor(spec, this.#initial, requests, { bound: 'lower' });
    this.#phase = this.#initial.map((s) => (s === 'InCS' ? 'in' : 'out'));
    this.#asked = [...requests];
    this.#held = [...requests];
    this.#entries = new Array<number>(n).fill(0);
    this.#minO = n;
    this.#evaluate(-1);
  }

  /** Takes the next record of the log (`index`: its position, for reports); returns the violations after it. */
  feed(rec: CallLogRecord, index: number): readonly LogViolation[] {
    this.#records++;
    const p = rec.p;
    if (!(Number.isInteger(p) && p >= 0 && p < this.#phase.length)) {
      this.#sequenceError(`record ${index}: unknown process ${p}`);
      return [];
    }
    const now = this.#phase[p]!;
    const step = STEPS[rec.e];
    let next = now;
    let request: { value: unknown } | undefined;
    if (step !== undefined) {
      if (now !== step[0])
        this.#sequenceError(`record ${index}: P${p} ${rec.e} while ${now} (expected ${step[0]})`);
      next = step[1];
      if (rec.e === 'entry-called') {
        request = { value: rec.q };
        this.#asked[p] = rec.q;
      }
      if (rec.e === 'entry-done') {
        this.#entries[p]!++;
        this.#held[p] = this.#asked[p];
      }
    } else if (rec.e === 'crashed') {
      next = inO(now) ? 'crashed-maybe' : 'crashed-out';
    } else if (rec.e === 'start') {
      next = this.#initial[p] === 'InCS' ? 'in' : 'out';
      request = { value: this.#initialRequests?.[p] };
      this.#held[p] = this.#initialRequests?.[p];
    } else if (rec.e === 'recovered') {
      // once recover() resolved, the object stays in `s` until its next call (`recovering`
      // changes nothing: until then the process counts as it did since its crash)
      next = rec.s === 'InCS' ? 'in' : 'out';
      request = { value: this.#held[p] };
    }
    this.#phase[p] = next;
    this.#move(this.certain, p, inU(now), inU(next), request);
    this.#move(this.possible, p, inO(now), inO(next), request);
    return this.#evaluate(index);
  }

  /** The check so far. */
  result(): CallLogCheck {
    return {
      ok: this.#violationCount === 0 && this.#sequenceErrors.length === 0,
      records: this.#records,
      violations: this.#violations,
      violationCount: this.#violationCount,
      maxCertainlyInCS: this.#maxU,
      minPossiblyInCS: this.#minO,
      entries: this.#entries,
      sequenceErrors: this.#sequenceErrors,
    };
  }

  /** Moves `p` in or out of one monitor's configuration; a new request is set while it is out. */
  #move(
    m: SafetyMonitor,
    p: ProcessId,
    was: boolean,
    is: boolean,
    request: { value: unknown } | undefined,
  ): void {
    if (was && !is) m.change(p, 'OutCS', this.#records);
    if (request !== undefined) m.setRequest(p, request.value, true);
    if (!was && is) m.change(p, 'InCS', this.#records);
  }

  #evaluate(index: number): LogViolation[] {
    const found: LogViolation[] = [];
    const members = (m: SafetyMonitor) => m.states.flatMap((s, p) => (s === 'InCS' ? [p] : []));
    const U = members(this.certain);
    const O = members(this.possible);
    this.#maxU = Math.max(this.#maxU, U.length);
    this.#minO = Math.min(this.#minO, O.length);
    for (const [kind, m, set] of [
      ['upper', this.certain, U],
      ['lower', this.possible, O],
    ] as const) {
      const v = m.violation();
      if (v === null) continue;
      this.#violationCount++;
      const violation: LogViolation = {
        kind,
        index,
        count: set.length,
        bound: boundOf(this.#spec, kind, v.at),
        processes: set,
        message: v.message,
        ...(v.at === undefined ? {} : { at: v.at }),
      };
      found.push(violation);
      if (this.#violations.length < this.#keep) this.#violations.push(violation);
    }
    return found;
  }

  #sequenceError(message: string): void {
    if (this.#sequenceErrors.length < this.#keep) this.#sequenceErrors.push(message);
  }
}

/**
 * Checks a whole call log with a {@link LogMonitor} (the shared-log check of a real cluster is
 * this, on the records read from the file).
 */
export function checkCallLog(records: readonly CallLogRecord[], options: LogMonitorOptions): CallLogCheck {
  const monitor = new LogMonitor(options);
  records.forEach((rec, index) => {
    monitor.feed(rec, index);
  });
  return monitor.result();
}
