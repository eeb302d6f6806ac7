/**
 * k-arbiters and (h,k)-arbiters — Manabe & Tajima, "(h,k)-arbiters for h-out of-k mutual
 * exclusion problem": Sec. 2.3 (Def. 2, uniform and (k+1)-cube k-arbiters) and Sec. 3
 * (Sec. 3.2 uniform (h,k)-arbiter, Sec. 3.3 (k+1)-cube (h,k)-arbiter incl. n ≠ a^(k+1)).
 */
import { ConfigurationError, CoterieError, type ProcessId } from '@critsec/core';
import { isValidN } from '@critsec/core/kit';
import { hasBit, isSubset } from './bitset.js';
import { buildCoterie, type Coterie } from './coterie.js';
import { prepare } from './prepared.js';
import { checkArbiterSize, cubeSide, cubeZ, uniformQuorumSize } from './arbiter-size.js';

/**
 * A k-arbiter (Def. 2): every k + 1 quorums share a process; minimal. Every k-arbiter is a
 * coterie (k ≥ 1), with a per-process assignment like any {@link Coterie}.
 */
export interface KArbiter extends Coterie {
  /** Number of units k (k + 1 quorums always share a process). */
  readonly k: number;
}

/** The JSON form of an (h,k)-arbiter: `assignments[h-1][i]` is the quorum `P_i` uses for h units. */
export interface HKArbiterJSON {
  /** Number of processes. */
  readonly n: number;
  /** Number of resource units. */
  readonly k: number;
  /** The construction (`HKArbiter.kind`). */
  readonly kind: string;
  /** `assignments[h − 1][i]`: the quorum `P_i` uses to request h units. */
  readonly assignments: readonly (readonly (readonly ProcessId[])[])[];
}

/**
 * An (h,k)-arbiter `𝒬_{h,k} = { Q_{h,k} | 1 ≤ h ≤ k }` (Sec. 3.1): a process that wants h units
 * uses a quorum of `Q_{h,k}`; here each process has a fixed quorum per h.
 */
export interface HKArbiter {
  /** Number of processes. */
  readonly n: number;
  /** Number of resource units. */
  readonly k: number;
  /** `'uniform-hk-arbiter'`, `'cube-hk-arbiter'` or `'custom'`. */
  readonly kind: string;
  /** The construction and its parameters in words. */
  readonly description: string;
  /**
   * `Q_{h,k}` as a coterie with its per-process assignment (every `Q_{h,k}` is a coterie: the
   * critical pattern {h, …, h} with ⌈(k+1)/h⌉ ≥ 2 requests makes any two of its quorums meet).
   * @throws ConfigurationError unless 1 ≤ h ≤ k.
   */
  quorumSet(h: number): Coterie;
  /**
   * The quorum `P_i` uses to request h units.
   * @throws ConfigurationError for a bad `i` or `h`.
   */
  quorumOf(i: ProcessId, h: number): readonly ProcessId[];
  /**
   * The processes whose h-unit quorum contains `i` (`R_i` of `Q_{h,k}`).
   * @throws ConfigurationError for a bad `i` or `h`.
   */
  reportersOf(i: ProcessId, h: number): readonly ProcessId[];
  /**
   * The construction's whole quorum family for h, when it is known and listable — the
   * (k+1)-cube's a^(k+1) tuple quorums `q^{b}_{h,k}` (mapped mod n) — of which the assigned
   * quorums are a part; `undefined` otherwise (uniform: every set of one size; custom).
   * `checkHKArbiter` uses it to report an assigned quorum that properly contains a family quorum.
   * @throws ConfigurationError unless 1 ≤ h ≤ k.
   */
  quorumFamily?(h: number): readonly (readonly ProcessId[])[] | undefined;
  /** The arbiter as plain data (every h's assignment). */
  toJSON(): HKArbiterJSON;
}

/**
 * True when `x` has the shape of an {@link HKArbiter} (`n`, `k`, `quorumOf`, `reportersOf`).
 */
export function isHKArbiter(x: unknown): x is HKArbiter {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as HKArbiter).n === 'number' &&
    typeof (x as HKArbiter).k === 'number' &&
    typeof (x as HKArbiter).quorumOf === 'function' &&
    typeof (x as HKArbiter).reportersOf === 'function'
  );
}

function checkNK(fn: string, n: number, k: number): void {
  if (!isValidN(n)) throw new ConfigurationError(`${fn}: n must be an integer ≥ 1, got ${String(n)}`);
  if (!Number.isSafeInteger(k) || k < 1 || k >= n) {
    throw new ConfigurationError(
      `${fn}: k must be an integer with 1 ≤ k < n = ${n}, got k = ${String(k)} (k ≥ n units would let every process in at once)`,
    );
  }
}

function cyclicWindows(n: number, size: number): ProcessId[][] {
  const out: ProcessId[][] = [];
  for (let i = 0; i < n; i++) {
    const q: ProcessId[] = [];
    for (let t = 0; t < size; t++) q.push((i + t) % n);
    out.push(q.sort((a, b) => a - b));
  }
  return out;
}

class HKArbiterImpl implements HKArbiter {
  readonly n: number;
  readonly k: number;
  readonly kind: string;
  readonly description: string;
  readonly #sets: readonly Coterie[];
  constructor(n: number, k: number, kind: string, description: string, sets: readonly Coterie[]) {
    this.n = n;
    this.k = k;
    this.kind = kind;
    this.description = description;
    this.#sets = Object.freeze(sets.slice());
    Object.freeze(this);
  }
  quorumSet(h: number): Coterie {
    const s = Number.isInteger(h) ? this.#sets[h - 1] : undefined;
    if (s === undefined) {
      throw new ConfigurationError(
        `(h,k)-arbiter: h must be an integer with 1 ≤ h ≤ k = ${this.k}, got h = ${String(h)}`,
      );
    }
    return s;
  }
  quorumOf(i: ProcessId, h: number): readonly ProcessId[] {
    return this.quorumSet(h).quorumOf(i);
  }
  reportersOf(i: ProcessId, h: number): readonly ProcessId[] {
    return this.quorumSet(h).reportersOf(i);
  }
  quorumFamily(h: number): readonly (readonly ProcessId[])[] | undefined {
    return families.get(this.quorumSet(h));
  }
  toJSON(): HKArbiterJSON {
    return {
      n: this.n,
      k: this.k,
      kind: this.kind,
      assignments: this.#sets.map((s) => s.toJSON().assignment),
    };
  }
  toString(): string {
    return `HKArbiter(${this.description})`;
  }
}

/** @internal */
export function makeHKArbiter(
  n: number,
  k: number,
  kind: string,
  description: string,
  sets: readonly Coterie[],
): HKArbiter {
  return new HKArbiterImpl(n, k, kind, description, sets);
}

/**
 * The uniform k-arbiter (Sec. 2.3): quorums of size `⌊k·n/(k+1)⌋ + 1`; `P_i` uses the cyclic
 * window starting at i. Any k + 1 such quorums miss fewer than `(k+1)·n/(k+1) = n` processes in
 * total, so they share one. k = 1 gives the majority coterie for odd n.
 * @throws ConfigurationError unless n ≥ 2 and 1 ≤ k < n, or beyond the size one construction may
 *   hold (`MAX_QUORUM_MEMBERSHIPS`, `MAX_QUORUM_SET_BITS`).
 */
export function uniformKArbiter(n: number, k: number): KArbiter {
  checkNK('uniformKArbiter(n, k)', n, k);
  checkArbiterSize('uniformKArbiter(n, k)', n, k, 1, false);
  const s = uniformQuorumSize(n, k, 1);
  return buildCoterie(n, 'uniform-k-arbiter', `uniform ${k}-arbiter n=${n}`, cyclicWindows(n, s), {
    extra: { k },
  }) as KArbiter;
}

/** Digits of x in base a, least significant first (b_1 … b_{k+1}). */
function digits(x: number, a: number, len: number): number[] {
  const d: number[] = [];
  for (let t = 0; t < len; t++) {
    d.push(x % a);
    x = Math.floor(x / a);
  }
  return d;
}

/**
 * `q^{b}_{h,k}` of Sec. 3.3 as a sorted list of processes: the union, over the k + 2 − z windows
 * j = 0..k+1−z, of the subcube fixing coordinates j+1..j+z to b's; tuple (x_1..x_{k+1}) is
 * process Σ x_i·a^(i−1) mod n.
 */
function cubeQuorum(
  b: readonly number[],
  a: number,
  k: number,
  z: number,
  n: number,
  mark: Uint8Array,
): ProcessId[] {
  const dim = k + 1;
  const free = dim - z;
  const out: ProcessId[] = [];
  const pow: number[] = [];
  for (let t = 0, v = 1; t < dim; t++, v *= a) pow.push(v);
  for (let j = 0; j + z <= dim; j++) {
    let fixed = 0;
    for (let t = j; t < j + z; t++) fixed += b[t]! * pow[t]!;
    const freeIdx: number[] = [];
    for (let t = 0; t < dim; t++) if (t < j || t >= j + z) freeIdx.push(t);
    const count = a ** free;
    for (let c = 0; c < count; c++) {
      let v = fixed;
      let x = c;
      for (const t of freeIdx) {
        v += (x % a) * pow[t]!;
        x = Math.floor(x / a);
      }
      const p = v % n;
      if (mark[p] === 0) {
        mark[p] = 1;
        out.push(p);
      }
    }
  }
  for (const p of out) mark[p] = 0;
  return out.sort((x, y) => x - y);
}

/**
 * The whole family `{ q^{b} | b ∈ [0,a)^(k+1) }` of Sec. 3.3 for n processes (tuples mod n), in
 * tuple order (`family[t]` is the quorum of the tuple with digits of t), each sorted.
 */
function cubeFamily(n: number, k: number, h: number): ProcessId[][] {
  const a = cubeSide(n, k);
  const z = cubeZ(k, h);
  const mark = new Uint8Array(n);
  const family: ProcessId[][] = [];
  for (let t = 0; t < a ** (k + 1); t++) family.push(cubeQuorum(digits(t, a, k + 1), a, k, z, n, mark));
  return family;
}

/**
 * Minimal quorums for n ≠ a^(k+1) ("minimality is satisfied by removing q' if q ⊂ q' for some q,
 * q' ∈ Q_{h,k}", Sec. 3.3) — against the **whole family** of a^(k+1) tuple quorums, not only the
 * n assigned ones: `P_p` keeps `q^{b(p)}` if no quorum of the family lies properly inside it, else
 * takes a minimal family quorum inside it (one containing p if there is one, then the smallest,
 * then the first tuple). Every assigned quorum is then minimal in the family, so no two nest.
 */
function minimalCubeAssignment(n: number, family: readonly ProcessId[][]): ProcessId[][] {
  const p = prepare(n, family);
  const m = family.length;
  const minimal = new Int8Array(m).fill(-1); // −1 unknown, 0 no, 1 yes
  const insideOf = (j: number): number[] => {
    const out: number[] = [];
    for (let b = 0; b < m; b++)
      if (p.sizes[b]! < p.sizes[j]! && isSubset(p.bits[b]!, p.bits[j]!)) out.push(b);
    return out;
  };
  const isMinimal = (j: number): boolean => {
    if (minimal[j] === -1) minimal[j] = insideOf(j).length === 0 ? 1 : 0;
    return minimal[j] === 1;
  };
  const out: ProcessId[][] = [];
  for (let q = 0; q < n; q++) {
    if (isMinimal(q)) {
      out.push(family[q]!);
      continue;
    }
    const has = (b: number) => (hasBit(p.bits[b]!, q) ? 0 : 1);
    const inside = insideOf(q)
      .filter(isMinimal)
      .sort((x, y) => has(x) - has(y) || p.sizes[x]! - p.sizes[y]! || x - y);
    out.push(family[inside[0]!]!);
  }
  return out;
}

function cubeSet(n: number, k: number, h: number, kindPrefix: string): Coterie {
  const a = cubeSide(n, k);
  const exact = a ** (k + 1) === n;
  const family = cubeFamily(n, k, h);
  const assignment = exact ? family : minimalCubeAssignment(n, family);
  const c = buildCoterie(
    n,
    kindPrefix,
    `(k+1)-cube ${kindPrefix === 'cube-k-arbiter' ? `${k}-arbiter` : `(h,k)-arbiter h=${h}, k=${k}`} n=${n}, a=${a}${exact ? '' : ' (tuples mod n)'}`,
    assignment,
    { extra: kindPrefix === 'cube-k-arbiter' ? { k } : undefined },
  );
  families.set(c, family);
  return c;
}

/** The family each cube quorum set was drawn from (see {@link HKArbiter.quorumFamily}). */
const families = new WeakMap<Coterie, readonly (readonly ProcessId[])[]>();

/**
 * The (k+1)-cube k-arbiter (Sec. 2.3): processes are the points (x_1, …, x_{k+1}) of a
 * (k+1)-dimensional cube of side a; `q^{b}` is the union of the k + 1 hyperplanes x_j = b_j;
 * `P_p` uses `q^{b(p)}` with b(p) the base-a digits of p. For n = a^(k+1):
 * `|q| = a^(k+1) − (a−1)^(k+1) ≤ (k+1)·n^(k/(k+1))`. For other n (the modification of [13], as
 * Sec. 3.3 spells it out): a is the least side with a^(k+1) ≥ n, tuple x is process
 * Σ x_i·a^(i−1) mod n, and a process whose quorum properly contains another quorum of the
 * whole a^(k+1)-tuple family is given a minimal one inside it. k = 1 gives a grid-like coterie.
 * @throws ConfigurationError unless n ≥ 2 and 1 ≤ k < n, or beyond the size one construction may
 *   hold (`MAX_QUORUM_MEMBERSHIPS`, `MAX_QUORUM_SET_BITS`).
 */
export function cubeKArbiter(n: number, k: number): KArbiter {
  checkNK('cubeKArbiter(n, k)', n, k);
  checkArbiterSize('cubeKArbiter(n, k)', n, k, 1, true);
  return cubeSet(n, k, 1, 'cube-k-arbiter') as KArbiter;
}

/**
 * The uniform (h,k)-arbiter (Sec. 3.2, Theorem 3): `Q_{h,k}` = sets of size `⌊k·n/(k+h)⌋ + 1`;
 * `P_i` uses the cyclic window of that size starting at i. `Q_{1,k}` is the uniform k-arbiter,
 * `Q_{k,k}` has quorums of `⌊n/2⌋ + 1` (the majority). Each `Q_{h,k}` is validated as a coterie
 * when built; the (h,k)-arbiter property itself is Theorem 3 (check it with `checkHKArbiter`).
 * @throws ConfigurationError unless n ≥ 2 and 1 ≤ k < n, or beyond the size one construction may
 *   hold (`MAX_QUORUM_MEMBERSHIPS`, `MAX_QUORUM_SET_BITS`).
 */
export function uniformHKArbiter(n: number, k: number): HKArbiter {
  checkNK('uniformHKArbiter(n, k)', n, k);
  checkArbiterSize('uniformHKArbiter(n, k)', n, k, k, false);
  const sets: Coterie[] = [];
  for (let h = 1; h <= k; h++) {
    sets.push(
      buildCoterie(
        n,
        'uniform-hk-arbiter',
        `uniform (h,k)-arbiter h=${h}, k=${k} n=${n}`,
        cyclicWindows(n, uniformQuorumSize(n, k, h)),
      ),
    );
  }
  return new HKArbiterImpl(n, k, 'uniform-hk-arbiter', `uniform (h,k)-arbiter k=${k} n=${n}`, sets);
}

/**
 * The (k+1)-cube (h,k)-arbiter (Sec. 3.3, Theorem 4): with `z_h = ⌊(1+k)/(1+k/h)⌋`,
 * `q^{b}_{h,k}` is the union of the k + 2 − z_h subcubes fixing z_h consecutive coordinates
 * (j+1..j+z_h, j = 0..k+1−z_h) to b's; `|q| ≤ (k+2−z_h)·a^(k+1−z_h)`. For n ≠ a^(k+1) the
 * (k+1)-tuples are mapped to processes mod n and supersets removed for minimality against the
 * whole family of a^(k+1) tuple quorums (a process whose quorum properly contains a family quorum
 * is given a minimal one inside it, preferably one containing the process; `quorumFamily(h)`
 * lists the family). Each `Q_{h,k}` is validated
 * as a coterie when built; the (h,k)-arbiter property itself is Theorem 4 (the mod-n mapping keeps
 * a common tuple's process common) — check it with `checkHKArbiter`.
 * @throws ConfigurationError unless n ≥ 2 and 1 ≤ k < n, or beyond the size one construction may
 *   hold (`MAX_QUORUM_MEMBERSHIPS`, `MAX_QUORUM_SET_BITS`).
 */
export function cubeHKArbiter(n: number, k: number): HKArbiter {
  checkNK('cubeHKArbiter(n, k)', n, k);
  checkArbiterSize('cubeHKArbiter(n, k)', n, k, k, true);
  const sets: Coterie[] = [];
  for (let h = 1; h <= k; h++) sets.push(cubeSet(n, k, h, 'cube-hk-arbiter'));
  return new HKArbiterImpl(
    n,
    k,
    'cube-hk-arbiter',
    `(k+1)-cube (h,k)-arbiter k=${k} n=${n}, a=${cubeSide(n, k)}`,
    sets,
  );
}

/** @internal shape checks shared by the user-facing constructors in `check-arbiter.ts`. */
export function hkSetsFromAssignments(
  n: number,
  k: number,
  assignments: readonly (readonly (readonly ProcessId[])[])[],
  kind: string,
): Coterie[] {
  if (!isValidN(n)) throw new ConfigurationError(`(h,k)-arbiter: n must be an integer ≥ 1, got ${String(n)}`);
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new ConfigurationError(`(h,k)-arbiter: k must be an integer ≥ 1, got ${String(k)}`);
  }
  if (!Array.isArray(assignments) || assignments.length !== k) {
    throw new CoterieError(
      `(h,k)-arbiter: give one assignment per h = 1..k (${k} entries, each with one quorum per process), got ${
        Array.isArray(assignments) ? assignments.length : typeof assignments
      }`,
    );
  }
  return assignments.map((a, t) => buildCoterie(n, kind, `${kind} h=${t + 1}, k=${k} n=${n}`, a));
}
