/**
 * The coterie representation (global-CS paper, Def. 3 and the remark after it: "for each P_i,
 * Q_i is defined as a constant and is a quorum used by P_i"): processes `0..n-1`, a per-process
 * quorum assignment `i ↦ Q_i`, the distinct quorums, and `R_i = { j : i ∈ Q_j }` (the processes
 * that report to `P_i` in MUTIN, global-CS paper Sec. 4). Immutable; `quorumOf` and `reportersOf`
 * are precomputed frozen arrays.
 */
import { ConfigurationError, CoterieError, type ProcessId } from '@critsec/core';
import { isValidN } from '@critsec/core/kit';
import { checkPrepared } from './check-coterie.js';
import { isSubset } from './bitset.js';
import { describeStructural, firstUsers, normalizeQuorums, prepare, type QuorumSet } from './prepared.js';

/** The JSON form of a coterie: `assignment[i]` is `Q_i`, the quorum process `i` uses. */
export interface CoterieJSON {
  /** Number of processes. */
  readonly n: number;
  /** The construction (`Coterie.kind`). */
  readonly kind: string;
  /** `assignment[i]`: the quorum Q_i of process `P_i`, sorted ascending. */
  readonly assignment: readonly (readonly ProcessId[])[];
}

/**
 * The literature quorum family a construction's assignment is drawn from (`Coterie.family`).
 *
 * - `{ kind: 'majority', n }`: every majority is a quorum — n odd: all sets of (n+1)/2 processes;
 *   n even: the global-CS paper's `C₁ ∪ C₂` with `P_0` breaking ties (every n/2-set containing
 *   `P_0`, every (n/2+1)-set without it), the rule `majority(n)`'s assignment follows.
 * - `{ kind: 'tree', n }`: the Agrawal–El Abbadi tree quorum protocol on the complete binary tree
 *   of n = 2^h − 1 nodes in heap order: a quorum of node v is `{v}` plus a quorum of one child's
 *   subtree, or (v failed) a quorum of each child's subtree; `{v}` for a leaf.
 */
export type QuorumFamily =
  | {
      /** The majority quorums (see above for n even). */
      readonly kind: 'majority';
      /** Number of processes. */
      readonly n: number;
    }
  | {
      /** The Agrawal–El Abbadi tree quorums on the complete binary tree of n = 2^h − 1 nodes. */
      readonly kind: 'tree';
      /** Number of processes. */
      readonly n: number;
    };

/**
 * An ordinary coterie with a per-process quorum assignment (global-CS paper, Def. 3).
 *
 * - `quorums`: the distinct assigned quorums, each sorted ascending, in order of first use
 *   (the quorum of `P_0` first). The coterie *is* this set: non-empty, pairwise intersecting,
 *   minimal.
 * - `quorumOf(i)`: `Q_i`, sorted; `reportersOf(i)`: `R_i = { j : i ∈ Q_j }`, sorted. Both O(1),
 *   returning the same frozen array on every call.
 */
export interface Coterie extends QuorumSet {
  /** Number of processes; processes are `0..n-1`. */
  readonly n: number;
  /** The construction: `'majority'`, `'grid'`, `'projective-plane'`, `'tree'`, `'wall'`, `'custom'`, … */
  readonly kind: string;
  /** A short human description with the construction's parameters, e.g. `grid 4×4`. */
  readonly description: string;
  /** The distinct quorums, each sorted ascending. */
  readonly quorums: readonly (readonly ProcessId[])[];
  /**
   * `Q_i`, the quorum process `i` uses (sorted ascending).
   * @throws ConfigurationError if `i` is not a process id `0..n-1`.
   */
  quorumOf(i: ProcessId): readonly ProcessId[];
  /**
   * Index of `Q_i` in {@link Coterie.quorums}.
   * @throws ConfigurationError if `i` is not a process id `0..n-1`.
   */
  quorumIndexOf(i: ProcessId): number;
  /**
   * `R_i = { j : i ∈ Q_j }` (sorted ascending): the processes whose quorum contains `i`.
   * @throws ConfigurationError if `i` is not a process id `0..n-1`.
   */
  reportersOf(i: ProcessId): readonly ProcessId[];
  /** `{ n, kind, assignment }` with `assignment[i] = Q_i`; {@link coterieFromJSON} reads it back. */
  toJSON(): CoterieJSON;
  /**
   * The literature quorum family the assignment is drawn from, when the construction is named
   * after one: `{ kind: 'majority', n }` on `majority(n)`, `{ kind: 'tree', n }` on `tree(n)`;
   * absent elsewhere (and on a coterie read back by `coterieFromJSON`, whatever its `kind`).
   * Every assigned quorum is a quorum of the family; `familyMetrics` gives the family's fault
   * tolerance, load and availability, `coterieMetrics` both sets of figures side by side. The
   * metrics of `metrics.ts` (`faultTolerance(c)`, …) stay over the assigned `quorums`.
   */
  readonly family?: QuorumFamily;
}

const EMPTY: readonly ProcessId[] = Object.freeze([]);

/**
 * True when `x` has the shape of a {@link Coterie} (`n`, `quorumOf`, `reportersOf`): how an
 * algorithm's factory tells a coterie from a wrong argument before it uses it.
 */
export function isCoterie(x: unknown): x is Coterie {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as Coterie).n === 'number' &&
    typeof (x as Coterie).quorumOf === 'function' &&
    typeof (x as Coterie).reportersOf === 'function'
  );
}

/** The error for a process id outside `0..n-1` (internal to `@critsec/coteries`). */
export function badProcess(i: unknown, n: number): ConfigurationError {
  return new ConfigurationError(
    `process id ${String(i)} is out of range; processes are the integers 0..${n - 1}`,
  );
}

class AssignedCoterie implements Coterie {
  readonly n: number;
  readonly kind: string;
  readonly description: string;
  readonly quorums: readonly (readonly ProcessId[])[];
  readonly #index: Int32Array;
  readonly #byProcess: readonly (readonly ProcessId[])[];
  readonly #reporters: readonly (readonly ProcessId[])[];

  constructor(
    n: number,
    kind: string,
    description: string,
    quorums: readonly (readonly ProcessId[])[],
    index: Int32Array,
    extra?: Readonly<Record<string, unknown>>,
  ) {
    this.n = n;
    this.kind = kind;
    this.description = description;
    this.quorums = quorums;
    this.#index = index;
    const byProcess: (readonly ProcessId[])[] = new Array(n);
    const users: ProcessId[][] = quorums.map(() => []);
    const first = new Int32Array(quorums.length).fill(-1);
    for (let i = 0; i < n; i++) {
      const j = index[i]!;
      byProcess[i] = quorums[j]!;
      users[j]!.push(i);
      if (first[j] === -1) first[j] = i;
    }
    const reporters: ProcessId[][] = Array.from({ length: n }, () => []);
    for (let j = 0; j < quorums.length; j++) {
      const u = users[j]!;
      for (const p of quorums[j]!) {
        const r = reporters[p]!;
        for (const i of u) r.push(i);
      }
    }
    this.#byProcess = Object.freeze(byProcess);
    this.#reporters = Object.freeze(
      reporters.map((r) => (r.length === 0 ? EMPTY : Object.freeze(r.sort((a, b) => a - b)))),
    );
    firstUsers.set(this, first);
    if (extra !== undefined) Object.assign(this, extra);
    Object.freeze(this);
  }

  quorumOf(i: ProcessId): readonly ProcessId[] {
    const q = this.#byProcess[i];
    if (q === undefined) throw badProcess(i, this.n);
    return q;
  }

  quorumIndexOf(i: ProcessId): number {
    const j = Number.isInteger(i) ? this.#index[i] : undefined;
    if (j === undefined) throw badProcess(i, this.n);
    return j;
  }

  reportersOf(i: ProcessId): readonly ProcessId[] {
    const r = this.#reporters[i];
    if (r === undefined) throw badProcess(i, this.n);
    return r;
  }

  toJSON(): CoterieJSON {
    return { n: this.n, kind: this.kind, assignment: this.#byProcess.map((q) => [...q]) };
  }

  toString(): string {
    return `Coterie(${this.description}: n = ${this.n}, ${this.quorums.length} quorums)`;
  }
}

/** Distinct quorums (equal arrays merged) and the index of each process's quorum. */
export function dedupe(perProcess: readonly (readonly ProcessId[])[]): {
  quorums: (readonly ProcessId[])[];
  index: Int32Array;
} {
  const quorums: (readonly ProcessId[])[] = [];
  const index = new Int32Array(perProcess.length);
  const byHash = new Map<number, number[]>();
  const byIdentity = new Map<readonly ProcessId[], number>();
  for (let i = 0; i < perProcess.length; i++) {
    const q = perProcess[i]!;
    const known = byIdentity.get(q);
    if (known !== undefined) {
      index[i] = known;
      continue;
    }
    let h = 0x811c9dc5 ^ q.length;
    for (const p of q) h = Math.imul(h ^ p, 0x01000193);
    const bucket = byHash.get(h);
    let found = -1;
    if (bucket !== undefined) {
      for (const j of bucket) {
        const other = quorums[j]!;
        if (other.length === q.length && other.every((v, t) => v === q[t])) {
          found = j;
          break;
        }
      }
    }
    if (found === -1) {
      found = quorums.length;
      quorums.push(Object.isFrozen(q) ? q : Object.freeze(q.slice()));
      if (bucket === undefined) byHash.set(h, [found]);
      else bucket.push(found);
    }
    byIdentity.set(q, found);
    index[i] = found;
  }
  return { quorums, index };
}

/**
 * Makes an assignment minimal: every process whose quorum properly contains another assigned
 * quorum is moved to a minimal assigned quorum inside it (one containing the process if there is
 * one, else the smallest, else the first). Quorums nobody uses any more are dropped. This is the
 * "remove q' if q ⊂ q'" step of the h-out-of-k paper, Sec. 3.3, for per-process assignments.
 */
export function minimizeAssignment(
  n: number,
  perProcess: readonly (readonly ProcessId[])[],
): (readonly ProcessId[])[] {
  const { quorums, index } = dedupe(perProcess);
  const p = prepare(n, quorums);
  if (p.minSize === p.maxSize) return perProcess.slice();
  const m = quorums.length;
  const minimal = new Uint8Array(m).fill(1);
  for (let a = 0; a < m; a++) {
    for (let b = 0; b < m; b++) {
      if (p.sizes[b]! < p.sizes[a]! && isSubset(p.bits[b]!, p.bits[a]!)) {
        minimal[a] = 0;
        break;
      }
    }
  }
  const replacement = new Map<number, number[]>();
  const out: (readonly ProcessId[])[] = new Array(perProcess.length);
  for (let i = 0; i < perProcess.length; i++) {
    const j = index[i]!;
    if (minimal[j] === 1) {
      out[i] = quorums[j]!;
      continue;
    }
    let inside = replacement.get(j);
    if (inside === undefined) {
      inside = [];
      for (let b = 0; b < m; b++) if (minimal[b] === 1 && isSubset(p.bits[b]!, p.bits[j]!)) inside.push(b);
      inside.sort((x, y) => p.sizes[x]! - p.sizes[y]! || x - y);
      replacement.set(j, inside);
    }
    const own = inside.find((b) => quorums[b]!.includes(i));
    out[i] = quorums[own ?? inside[0]!]!;
  }
  return out;
}

/** Options of the internal builder. */
export interface BuildOptions {
  /** Run the coterie check (intersection + minimality) and throw `CoterieError` on failure. */
  readonly check?: boolean;
  /** Replace non-minimal assigned quorums first (see {@link minimizeAssignment}). */
  readonly minimize?: boolean;
  /** Extra read-only properties of the result (e.g. `k` of a k-arbiter). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * Builds a coterie from a per-process assignment after normalizing it (sorting each quorum).
 * @throws CoterieError on a structural defect or, with `check`, a failed coterie check.
 */
export function buildCoterie(
  n: number,
  kind: string,
  description: string,
  assignment: readonly (readonly unknown[])[],
  options: BuildOptions = {},
): Coterie {
  if (!isValidN(n)) throw new ConfigurationError(`${kind}: n must be an integer ≥ 1, got ${String(n)}`);
  if (!Array.isArray(assignment) || assignment.length !== n) {
    throw new CoterieError(
      `${kind}: the assignment must list one quorum per process (${n} entries, Q_0..Q_${n - 1}), got ${
        Array.isArray(assignment) ? `${assignment.length} entries` : typeof assignment
      }`,
    );
  }
  for (let i = 0; i < n; i++) {
    if (!Array.isArray(assignment[i])) {
      throw new CoterieError(
        `${kind}: Q_${i} must be an array of process ids, got ${JSON.stringify(assignment[i])}`,
      );
    }
  }
  const labels = { quorums: assignment };
  firstUsers.set(
    labels,
    Int32Array.from({ length: n }, (_, i) => i),
  );
  const norm = normalizeQuorums(n, assignment, labels);
  if (!norm.ok) throw new CoterieError(`${kind}: ${describeStructural(norm.violation, n)}`);
  const perProcess = options.minimize ? minimizeAssignment(n, norm.quorums) : norm.quorums;
  const { quorums, index } = dedupe(perProcess);
  const c = new AssignedCoterie(n, kind, description, Object.freeze(quorums), index, options.extra);
  if (options.check !== false) {
    const r = checkPrepared(n, c.quorums, c);
    if (!r.ok) throw new CoterieError(`${kind}: ${r.message}`);
  }
  return c;
}
