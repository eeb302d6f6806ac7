import {
  type CSState,
  checkConfiguration,
  type ProblemSpec,
  type ProcessId,
  type SafetyBound,
  type SpecViolation,
} from '@critsec/core';
import { describeSpec } from '@critsec/core/kit';

/** A safety breach seen by a {@link SafetyMonitor}. */
export interface Violation {
  /** What broke, with the numbers. */
  readonly message: string;
  /** The state change (counted from 1) at which it broke. */
  readonly step: number;
  /** Virtual time of that change. */
  readonly time: number;
  /** The process whose change broke it. */
  readonly process: ProcessId;
}

/** Options of a {@link SafetyMonitor}. */
export interface SafetyMonitorOptions {
  /**
   * The half of the condition checked (default `'both'`): a monitor fed the processes certainly
   * InCS checks `'upper'`, one fed those possibly InCS checks `'lower'` (see `LogMonitor`).
   */
  readonly bound?: SafetyBound;
}

/**
 * Watches every state change of a cluster and checks the problem's safety condition at each
 * one (DESIGN.md 4): global (l,k) (`l ≤ #InCS ≤ k`), generalized local (l_i,k_i) over a graph,
 * h-out-of-k (units held InCS ≤ k) and group exclusivity. Checks are incremental: O(1) per
 * change for global, h-out-of-k and group problems, O(Σ degree of the neighbourhood) for local.
 *
 * Fed live, it gets each `statechange` of the objects ({@link change}); fed from a log of call
 * records (a shared log of real processes), two of them — one per bound — sit under a
 * `LogMonitor`.
 */
export class SafetyMonitor {
  /** The problem checked. */
  readonly spec: ProblemSpec;
  readonly #states: CSState[];
  readonly #requests: unknown[];
  readonly #violations: Violation[] = [];
  #step = 0;
  #inCS = 0;
  #units = 0;
  readonly #groupCount = new Map<unknown, number>();
  readonly #local: number[] | undefined;
  #maxInCS = 0;
  readonly #upper: boolean;
  readonly #lower: boolean;
  /** The half of the condition checked. */
  readonly bound: SafetyBound;

  /** `initial` must already be safe (the harness checks it with `assertSafeConfiguration`). */
  constructor(
    spec: ProblemSpec,
    initial: readonly CSState[],
    requests: readonly unknown[] = [],
    options: SafetyMonitorOptions = {},
  ) {
    this.spec = spec;
    this.bound = options.bound ?? 'both';
    this.#upper = this.bound !== 'lower';
    this.#lower = this.bound !== 'upper';
    this.#states = [...initial];
    this.#requests = [...requests];
    for (let i = 0; i < initial.length; i++) if (initial[i] === 'InCS') this.#add(i, +1);
    if (spec.kind === 'local') {
      this.#local = initial.map((_, i) => this.#neighbourhoodCount(i));
    }
  }

  /** Every violation so far. */
  get violations(): readonly Violation[] {
    return this.#violations;
  }

  /** Number of state changes seen. */
  get steps(): number {
    return this.#step;
  }

  /** Processes InCS now. */
  get inCS(): number {
    return this.#inCS;
  }

  /** The most processes InCS at once so far, the initial configuration included (concurrency). */
  get maxInCS(): number {
    return this.#maxInCS;
  }

  /** The monitored configuration. */
  get states(): readonly CSState[] {
    return this.#states;
  }

  /** The request each process holds or last made (units or group). */
  get requests(): readonly unknown[] {
    return this.#requests;
  }

  /**
   * Records the request a process is about to enter with (before its state can flip). Ignored
   * while the process is InCS, unless `replace` (a restarted process holds its initial request
   * again): then the units or group it holds change with it.
   */
  setRequest(i: ProcessId, req: unknown, replace = false): void {
    if (this.#states[i] === 'InCS') {
      if (!replace) return;
      this.#add(i, -1);
      this.#requests[i] = req;
      this.#add(i, +1);
      return;
    }
    this.#requests[i] = req;
  }

  /**
   * Records that process `i` is now `state`; returns the violation it causes, if any (also kept
   * in {@link violations}).
   */
  change(i: ProcessId, state: CSState, time: number): Violation | null {
    this.#step++;
    if (this.#states[i] === state) return null;
    this.#states[i] = state;
    this.#add(i, state === 'InCS' ? +1 : -1);
    const message = this.#check(i);
    if (message === null) return null;
    const v: Violation = {
      message: `${describeSpec(this.spec)}: ${message}`,
      step: this.#step,
      time,
      process: i,
    };
    this.#violations.push(v);
    return v;
  }

  /** Full (non-incremental) check of the current configuration, for cross-checking. */
  recheck(): string | null {
    return this.violation()?.message ?? null;
  }

  /**
   * Full (non-incremental) check of the current configuration on the monitor's bound: what is
   * wrong now (with the process whose neighbourhood breaks a local spec), or null.
   */
  violation(): SpecViolation | null {
    return checkConfiguration(this.spec, this.#states, this.#requests, this.bound);
  }

  #add(i: ProcessId, d: 1 | -1): void {
    this.#inCS += d;
    if (this.#inCS > this.#maxInCS) this.#maxInCS = this.#inCS;
    const spec = this.spec;
    if (spec.kind === 'h-out-of-k') {
      const h = this.#requests[i];
      this.#units += d * (typeof h === 'number' ? h : Number.NaN);
    } else if (spec.kind === 'group') {
      const g = this.#requests[i];
      const c = (this.#groupCount.get(g) ?? 0) + d;
      if (c === 0) this.#groupCount.delete(g);
      else this.#groupCount.set(g, c);
    } else if (spec.kind === 'local' && this.#local !== undefined) {
      this.#local[i]! += d;
      for (const j of spec.graph.neighbors[i]!) this.#local[j]! += d;
    }
  }

  #neighbourhoodCount(i: ProcessId): number {
    if (this.spec.kind !== 'local') return 0;
    let c = this.#states[i] === 'InCS' ? 1 : 0;
    for (const j of this.spec.graph.neighbors[i]!) if (this.#states[j] === 'InCS') c++;
    return c;
  }

  #check(changed: ProcessId): string | null {
    const spec = this.spec;
    switch (spec.kind) {
      case 'global':
        if (this.#lower && this.#inCS < spec.l)
          return `${this.#inCS} processes InCS, fewer than l = ${spec.l}`;
        if (this.#upper && this.#inCS > spec.k)
          return `${this.#inCS} processes InCS, more than k = ${spec.k}`;
        return null;
      case 'h-out-of-k':
        if (this.#upper && !(this.#units <= spec.k)) {
          return `${this.#units} units held InCS, more than k = ${spec.k} (P${changed} entered with h = ${String(this.#requests[changed])})`;
        }
        return null;
      case 'group':
        if (this.#upper && this.#groupCount.size > 1) {
          const holders = this.#states.flatMap((s, j) =>
            s === 'InCS' ? [`P${j}:${String(this.#requests[j])}`] : [],
          );
          return `processes of different groups are InCS together (${holders.join(', ')})`;
        }
        return null;
      case 'local': {
        const local = this.#local!;
        for (const j of [changed, ...spec.graph.neighbors[changed]!]) {
          const c = local[j]!;
          if (this.#lower && c < spec.l[j]!)
            return `${c} InCS in N_${j} ∪ {${j}}, fewer than l_${j} = ${spec.l[j]}`;
          if (this.#upper && c > spec.k[j]!)
            return `${c} InCS in N_${j} ∪ {${j}}, more than k_${j} = ${spec.k[j]}`;
        }
        return null;
      }
    }
  }
}
