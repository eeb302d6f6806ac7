/**
 * Group quorum systems — Joung, "Quorum-based algorithms for group mutual exclusion", IEEE TPDS
 * 14(5), 2003, Sec. 3: m-group quorum systems (Def. 1), degree (Def. 2), the surficial quorum
 * system (Fig. 3, the staircase construction 𝓕(P, m), Theorem 1) and the transform
 * T_m(C) = (C, …, C). Groups and cartels are numbered 0..m-1 here (1..m in the paper).
 */
import { ConfigurationError, CoterieError, isValidN, type ProcessId } from '@critsec/core';
import { intersects, nextClearBit, nextSetBit, popcount, wordsFor } from './bitset.js';
import { findDisjointPair, findNestedPair } from './check-coterie.js';
import { type Coterie, dedupe, minimizeAssignment } from './coterie.js';
import { formatSet } from './format.js';
import { describeStructural, normalizeQuorums, type Prepared, prepare } from './prepared.js';

/**
 * The JSON form of a group quorum system: `cartels[g]` lists cartel g's quorums and
 * `assignment[i][g]` is the index (into `cartels[g]`) of the quorum `P_i` uses for group g.
 */
export interface GroupQuorumSystemJSON {
  readonly n: number;
  readonly m: number;
  readonly kind: string;
  readonly cartels: readonly (readonly (readonly ProcessId[])[])[];
  readonly assignment: readonly (readonly number[])[];
}

/** A quorum of a group quorum system: cartel `g`, index `j` in it (the paper's `Q_{g,j}`). */
export interface CartelQuorumRef {
  readonly cartel: number;
  readonly index: number;
}

/**
 * An m-group quorum system C = (C_0, …, C_{m-1}) over processes 0..n-1 (group-mutex paper,
 * Def. 1): quorums of different cartels intersect; each cartel is minimal. Each process has a fixed
 * quorum per group: a process requesting group g acquires `quorumOf(i, g)` ∈ C_g (as Maekawa_M and
 * Maekawa_S do, Sec. 4). Quorums of one cartel need not meet — that is what lets a group enter
 * concurrently.
 */
export interface GroupQuorumSystem {
  readonly n: number;
  /** Number of groups (cartels). */
  readonly m: number;
  /** `'surficial'`, `'coterie-transform'`, `'custom'`. */
  readonly kind: string;
  readonly description: string;
  /** `cartels[g]` = the distinct quorums of cartel g, each sorted ascending. */
  readonly cartels: readonly (readonly (readonly ProcessId[])[])[];
  /**
   * The quorum `P_i` acquires when requesting group g (sorted; a member of `cartels[g]`).
   * @throws ConfigurationError for a bad process id or group.
   */
  quorumOf(i: ProcessId, g: number): readonly ProcessId[];
  /**
   * Index of `quorumOf(i, g)` in `cartels[g]`.
   * @throws ConfigurationError for a bad process id or group.
   */
  quorumIndexOf(i: ProcessId, g: number): number;
  /**
   * The quorums containing process p (the paper's multiset n_p), by cartel and index.
   * @throws ConfigurationError for a bad process id.
   */
  holdersOf(p: ProcessId): readonly CartelQuorumRef[];
  toJSON(): GroupQuorumSystemJSON;
}

function badProcess(i: unknown, n: number): ConfigurationError {
  return new ConfigurationError(
    `process id ${String(i)} is out of range; processes are the integers 0..${n - 1}`,
  );
}

class GroupQuorumSystemImpl implements GroupQuorumSystem {
  readonly n: number;
  readonly m: number;
  readonly kind: string;
  readonly description: string;
  readonly cartels: readonly (readonly (readonly ProcessId[])[])[];
  readonly #index: readonly Int32Array[];
  readonly #holders: readonly (readonly CartelQuorumRef[])[];
  constructor(
    n: number,
    kind: string,
    description: string,
    cartels: (readonly ProcessId[])[][],
    index: Int32Array[],
  ) {
    this.n = n;
    this.m = cartels.length;
    this.kind = kind;
    this.description = description;
    this.cartels = Object.freeze(
      cartels.map((c) => Object.freeze(c.map((q) => (Object.isFrozen(q) ? q : Object.freeze(q.slice()))))),
    );
    this.#index = Object.freeze(index);
    const holders: CartelQuorumRef[][] = Array.from({ length: n }, () => []);
    this.cartels.forEach((c, g) => {
      c.forEach((q, j) => {
        for (const p of q) holders[p]!.push(Object.freeze({ cartel: g, index: j }));
      });
    });
    this.#holders = Object.freeze(holders.map((h) => Object.freeze(h)));
    Object.freeze(this);
  }
  quorumIndexOf(i: ProcessId, g: number): number {
    const row = Number.isInteger(g) ? this.#index[g] : undefined;
    if (row === undefined) {
      throw new ConfigurationError(
        `group ${String(g)} is out of range; groups are the integers 0..${this.m - 1}`,
      );
    }
    const j = Number.isInteger(i) ? row[i] : undefined;
    if (j === undefined) throw badProcess(i, this.n);
    return j;
  }
  quorumOf(i: ProcessId, g: number): readonly ProcessId[] {
    return this.cartels[g]![this.quorumIndexOf(i, g)]!;
  }
  holdersOf(p: ProcessId): readonly CartelQuorumRef[] {
    const h = this.#holders[p];
    if (h === undefined) throw badProcess(p, this.n);
    return h;
  }
  toJSON(): GroupQuorumSystemJSON {
    return {
      n: this.n,
      m: this.m,
      kind: this.kind,
      cartels: this.cartels.map((c) => c.map((q) => [...q])),
      assignment: Array.from({ length: this.n }, (_, i) => this.#index.map((row) => row[i]!)),
    };
  }
  toString(): string {
    return `GroupQuorumSystem(${this.description}: n = ${this.n}, m = ${this.m})`;
  }
}

// ───────────────────────────── validation ─────────────────────────────

/** Why a list of cartels is not a group quorum system. */
export type GroupViolation =
  | { readonly kind: 'structure'; readonly cartel?: number; readonly detail: string }
  | { readonly kind: 'not-intersecting'; readonly a: CartelQuorumRef; readonly b: CartelQuorumRef }
  | { readonly kind: 'not-minimal'; readonly subset: CartelQuorumRef; readonly superset: CartelQuorumRef };

/** The outcome of {@link checkGroupQuorumSystem}. */
export type GroupCheck =
  | { readonly ok: true; readonly message: string }
  | { readonly ok: false; readonly message: string; readonly violation: GroupViolation };

const label = (cartels: readonly (readonly (readonly ProcessId[])[])[], r: CartelQuorumRef) =>
  `Q_{${r.cartel},${r.index}} = ${formatSet(cartels[r.cartel]![r.index]!)}`;

function sameCartel(a: readonly (readonly ProcessId[])[], b: readonly (readonly ProcessId[])[]): boolean {
  return a === b || (a.length === b.length && a.every((q, j) => q === b[j]));
}

/** First pair (Q ∈ A, R ∈ B) with Q ∩ R = ∅, by index in A then B. */
function crossDisjoint(pa: Prepared, pb: Prepared, n: number): [number, number] | undefined {
  const ma = pa.quorums.length;
  const mb = pb.quorums.length;
  if (pa.minSize + pb.minSize > n) return undefined;
  if (mb > 64 && pb.totalSize * 16 <= n * mb) {
    const holders = pb.holders();
    const reach = new Uint32Array(wordsFor(mb));
    for (let a = 0; a < ma; a++) {
      if (pa.sizes[a]! + pb.minSize > n) continue;
      reach.fill(0);
      for (const x of pa.quorums[a]!) {
        const h = holders[x]!;
        for (let w = 0; w < reach.length; w++) reach[w]! |= h[w]!;
      }
      const b = nextClearBit(reach, 0, mb);
      if (b >= 0) return [a, b];
    }
    return undefined;
  }
  for (let a = 0; a < ma; a++) {
    for (let b = 0; b < mb; b++) {
      if (pa.sizes[a]! + pb.sizes[b]! > n) continue;
      if (!intersects(pa.bits[a]!, pb.bits[b]!)) return [a, b];
    }
  }
  return undefined;
}

/** Normalized cartels or a structural violation. */
function normalizeCartels(
  n: unknown,
  cartels: unknown,
):
  | { ok: true; cartels: (readonly ProcessId[])[][] }
  | { ok: false; message: string; violation: GroupViolation } {
  const fail = (detail: string, cartel?: number) => ({
    ok: false as const,
    message: detail,
    violation: { kind: 'structure' as const, ...(cartel === undefined ? {} : { cartel }), detail },
  });
  if (!isValidN(n)) return fail(`n must be an integer ≥ 1 (processes are 0..n-1), got ${String(n)}`);
  if (!Array.isArray(cartels) || cartels.length < 1) {
    return fail('a group quorum system needs at least one cartel (one list of quorums per group)');
  }
  const out: (readonly ProcessId[])[][] = [];
  for (let g = 0; g < cartels.length; g++) {
    const c: unknown = cartels[g];
    if (!Array.isArray(c) || !c.every((q) => Array.isArray(q)))
      return fail(`cartel ${g} must be a list of quorums (arrays of process ids)`, g);
    const norm = normalizeQuorums(n, c as unknown[][]);
    if (!norm.ok) {
      const text = describeStructural(norm.violation, n).replace(/quorum #(\d+)/, `Q_{${g},$1}`);
      return fail(`cartel ${g}: ${text}`, g);
    }
    // repeated quorums count once
    out.push(dedupe(norm.quorums).quorums);
  }
  return { ok: true, cartels: out };
}

function checkNormalized(n: number, cartels: readonly (readonly (readonly ProcessId[])[])[]): GroupCheck {
  const prepared = cartels.map((c) => prepare(n, c));
  for (let g = 0; g < cartels.length; g++) {
    for (let h = g + 1; h < cartels.length; h++) {
      let pair: [number, number] | undefined;
      if (sameCartel(cartels[g]!, cartels[h]!)) {
        // T_m(C): cross-cartel pairs are the pairs of C (a quorum always meets itself).
        const d = findDisjointPair(prepared[g]!);
        pair = d;
      } else pair = crossDisjoint(prepared[g]!, prepared[h]!, n);
      if (pair !== undefined) {
        const a = { cartel: g, index: pair[0] };
        const b = { cartel: h, index: pair[1] };
        return {
          ok: false,
          message: `${label(cartels, a)} and ${label(cartels, b)} do not intersect; quorums of different cartels must share a process (intersection, group-mutex paper Def. 1)`,
          violation: { kind: 'not-intersecting', a, b },
        };
      }
    }
  }
  for (let g = 0; g < cartels.length; g++) {
    const nested = findNestedPair(prepared[g]!);
    if (nested !== undefined) {
      const subset = { cartel: g, index: nested[0] };
      const superset = { cartel: g, index: nested[1] };
      return {
        ok: false,
        message: `${label(cartels, subset)} is a proper subset of ${label(cartels, superset)}; no quorum may contain another quorum of its cartel (minimality, group-mutex paper Def. 1)`,
        violation: { kind: 'not-minimal', subset, superset },
      };
    }
  }
  const sizes = cartels.map((c) => c.length).join(', ');
  return {
    ok: true,
    message: `valid ${cartels.length}-group quorum system over ${n} processes (cartel sizes ${sizes}): quorums of different cartels intersect, every cartel is minimal`,
  };
}

/**
 * Checks Def. 1 of the group-mutex paper: every quorum a non-empty set of processes 0..n-1, every
 * two quorums of *different* cartels intersect, and no quorum contains another of its own cartel.
 * Repeated quorums within a cartel count once. Bitsets; identical cartels (as in T_m(C)) are
 * checked once as a coterie.
 *
 * @param g a {@link GroupQuorumSystem} or `{ n, cartels }`.
 * @returns `{ ok, message }`, with the first offending quorum or pair named on failure.
 */
export function checkGroupQuorumSystem(g: {
  readonly n: number;
  readonly cartels: readonly (readonly (readonly ProcessId[])[])[];
}): GroupCheck {
  const norm = normalizeCartels(g.n, g.cartels);
  if (!norm.ok) return { ok: false, message: norm.message, violation: norm.violation };
  return checkNormalized(g.n, norm.cartels);
}

// ───────────────────────────── construction ─────────────────────────────

/** Default per-process assignment: a quorum of cartel g containing i if any, else i mod |C_g|. */
function defaultAssignment(n: number, cartels: readonly (readonly (readonly ProcessId[])[])[]): Int32Array[] {
  return cartels.map((c) => {
    const row = new Int32Array(n).fill(-1);
    c.forEach((q, j) => {
      for (const p of q) if (row[p] === -1) row[p] = j;
    });
    for (let i = 0; i < n; i++) if (row[i] === -1) row[i] = i % c.length;
    return row;
  });
}

function buildGroup(
  n: number,
  kind: string,
  description: string,
  cartels: unknown,
  assignment?: unknown,
): GroupQuorumSystem {
  const norm = normalizeCartels(n, cartels);
  if (!norm.ok) throw new CoterieError(`${kind}: ${norm.message}`);
  const check = checkNormalized(n, norm.cartels);
  if (!check.ok) throw new CoterieError(`${kind}: ${check.message}`);
  let index: Int32Array[];
  if (assignment === undefined) index = defaultAssignment(n, norm.cartels);
  else {
    if (!Array.isArray(assignment) || assignment.length !== n) {
      throw new CoterieError(
        `${kind}: "assignment" must have one row per process (${n} rows of ${norm.cartels.length} quorum indices)`,
      );
    }
    // Map the caller's indices (into their cartel lists) onto the deduplicated cartels.
    const raw = cartels as (readonly (readonly ProcessId[])[])[];
    index = norm.cartels.map((c, g) => {
      const keyOf = (q: readonly number[]) => [...q].sort((x, y) => x - y).join(',');
      const pos = new Map(c.map((q, j) => [q.join(','), j]));
      const row = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const r: unknown = (assignment as unknown[])[i];
        const j = Array.isArray(r) ? (r[g] as unknown) : undefined;
        const q = typeof j === 'number' && Number.isInteger(j) ? raw[g]![j] : undefined;
        if (q === undefined) {
          throw new CoterieError(
            `${kind}: assignment[${i}][${g}] must be the index of a quorum of cartel ${g} (0..${raw[g]!.length - 1}), got ${JSON.stringify(j)}`,
          );
        }
        row[i] = pos.get(keyOf(q))!;
      }
      return row;
    });
  }
  return new GroupQuorumSystemImpl(n, kind, description, norm.cartels, index);
}

/**
 * A group quorum system from cartels (and optionally a per-process assignment
 * `assignment[i][g]` = index into `cartels[g]`; by default `P_i` uses a quorum of C_g containing
 * i if there is one, else quorum `i mod |C_g|`). Validated with {@link checkGroupQuorumSystem}.
 * @throws CoterieError if it is not a group quorum system or the assignment is malformed.
 */
export function groupQuorumSystem(
  n: number,
  cartels: readonly (readonly (readonly ProcessId[])[])[],
  assignment?: readonly (readonly number[])[],
  kind = 'custom',
): GroupQuorumSystem {
  if (!isValidN(n))
    throw new ConfigurationError(`groupQuorumSystem: n must be an integer ≥ 1, got ${String(n)}`);
  return buildGroup(
    n,
    kind,
    `${kind} ${Array.isArray(cartels) ? cartels.length : 0}-group n=${n}`,
    cartels,
    assignment,
  );
}

/**
 * Reads a group quorum system written by {@link GroupQuorumSystem.toJSON}
 * (`{ n, m?, kind?, cartels, assignment? }`) and validates it.
 * @throws CoterieError if the value does not have that shape or is not a group quorum system.
 */
export function groupQuorumSystemFromJSON(json: unknown): GroupQuorumSystem {
  const expected =
    'expected { "n": <integer ≥ 1>, "cartels": [[<quorum>, …], …], "assignment"?: [[<index per group>], …], "kind"?: <string> }';
  let o = json;
  if (typeof o === 'string') {
    try {
      o = JSON.parse(o) as unknown;
    } catch (err) {
      throw new CoterieError(
        `group quorum system JSON does not parse: ${(err as Error).message}; ${expected}`,
        { cause: err },
      );
    }
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new CoterieError(`group quorum system JSON must be an object; ${expected}`);
  const r = o as Partial<GroupQuorumSystemJSON>;
  if (typeof r.n !== 'number' || !Number.isSafeInteger(r.n) || r.n < 1) {
    throw new CoterieError(
      `group quorum system JSON: "n" must be an integer ≥ 1, got ${JSON.stringify(r.n)}; ${expected}`,
    );
  }
  if (!Array.isArray(r.cartels))
    throw new CoterieError(`group quorum system JSON: "cartels" must be an array; ${expected}`);
  if (r.m !== undefined && r.m !== r.cartels.length) {
    throw new CoterieError(
      `group quorum system JSON: "m" = ${JSON.stringify(r.m)} but there are ${r.cartels.length} cartels`,
    );
  }
  if (r.kind !== undefined && typeof r.kind !== 'string')
    throw new CoterieError(`group quorum system JSON: "kind" must be a string; ${expected}`);
  const kind = r.kind ?? 'custom';
  return buildGroup(r.n, kind, `${kind} ${r.cartels.length}-group n=${r.n}`, r.cartels, r.assignment);
}

/**
 * The transform T_m(C) = (C, …, C) of the group-mutex paper, Sec. 3: an ordinary coterie used as
 * an m-group quorum system. `quorumOf(i, g) = c.quorumOf(i)` for every group. Its degree is 1
 * (all quorums of a cartel meet), so only one process is in the CS at a time under Maekawa's
 * locking; Maekawa_M / Maekawa_S lift that.
 * @throws ConfigurationError if m is not an integer ≥ 1.
 */
export function groupFromCoterie(c: Coterie, m: number): GroupQuorumSystem {
  if (!Number.isSafeInteger(m) || m < 1)
    throw new ConfigurationError(
      `groupFromCoterie(c, m): m must be an integer ≥ 1 (number of groups), got ${String(m)}`,
    );
  const cartels = Array.from({ length: m }, () => c.quorums as (readonly ProcessId[])[]);
  const row = Int32Array.from({ length: c.n }, (_, i) => c.quorumIndexOf(i));
  const check = checkNormalized(c.n, [c.quorums]);
  if (!check.ok) throw new CoterieError(`groupFromCoterie: ${check.message}`);
  const d = findDisjointPair(prepare(c.n, c.quorums));
  if (d !== undefined) {
    throw new CoterieError(
      `groupFromCoterie: the coterie's quorums ${formatSet(c.quorums[d[0]]!)} and ${formatSet(c.quorums[d[1]]!)} do not intersect`,
    );
  }
  return new GroupQuorumSystemImpl(
    c.n,
    'coterie-transform',
    `T_${m}(${c.description})`,
    cartels.map((x) => x.slice()),
    Array.from({ length: m }, () => row),
  );
}

// ───────────────────────────── surficial ─────────────────────────────

/** Sizes n = k²·m(m−1)/2 for which the surficial system of m groups exists exactly. */
export function surficialSize(m: number, k: number): number {
  return (k * k * m * (m - 1)) / 2;
}

/** How {@link surficial} fits an n that is not k²·m(m−1)/2. */
export type SurficialFit = 'exact' | 'subset' | 'wrap';

/**
 * The surficial m-group quorum system 𝓕(P, m) — group-mutex paper, Fig. 3 (staircase
 * construction), Theorem 1.
 *
 * With k = √(2n/(m(m−1))): P is split into m(m−1)/2 squares P^{i,j} (1 ≤ i ≤ j ≤ m−1) of k×k
 * nodes p^{i,j}_{r,s}, numbered square by square (i, then j), row-major inside a square. Cartel i
 * (1-based) has k quorums
 * `Q_{i,j} = { p^{s,i−1}_{r,j} | 1 ≤ s ≤ i−1, 1 ≤ r ≤ k } ∪ { p^{i,s}_{j,r} | i ≤ s ≤ m−1, 1 ≤ r ≤ k }`
 * (column j through the squares above the stair, row j through the squares of stair i).
 * Facts (Theorem 1): every cartel has k quorums, |Q| = (m−1)·k = √(2n(m−1)/m), every process is
 * in exactly two quorums, quorums of different cartels meet in exactly one process, quorums of a
 * cartel are pairwise disjoint (uniform degree k). `P_i` requesting group g uses the quorum of
 * cartel g that contains it if any, else quorum `i mod k`.
 *
 * For other n (`fit`):
 * - `'exact'` (default): throws, naming the nearest sizes that fit;
 * - `'subset'`: the largest k with k²·m(m−1)/2 ≤ n; processes beyond the squares are in no
 *   quorum (they still request, using quorum `i mod k`);
 * - `'wrap'`: the smallest k with k²·m(m−1)/2 ≥ n; node t is process t mod n (the paper notes
 *   other node-to-process mappings may be used); cross-cartel intersection is preserved by the
 *   mapping, quorums that come to contain another of their cartel are replaced by it, and the
 *   result is validated.
 *
 * @param n number of processes; @param m number of groups, ≥ 2.
 * @throws ConfigurationError if m < 2, n is not a positive integer, n has no fitting k under
 *   `'exact'` (message names the nearest fitting sizes), or n < m(m−1)/2 under `'subset'`.
 */
export function surficial(
  n: number,
  m: number,
  options: { readonly fit?: SurficialFit } = {},
): GroupQuorumSystem {
  if (!Number.isSafeInteger(m) || m < 2) {
    throw new ConfigurationError(
      `surficial(n, m): m must be an integer ≥ 2 (the construction needs two groups or more), got ${String(m)}`,
    );
  }
  if (!isValidN(n))
    throw new ConfigurationError(`surficial(n, m): n must be an integer ≥ 1, got ${String(n)}`);
  const fit = options.fit ?? 'exact';
  const squares = (m * (m - 1)) / 2;
  let kLow = Math.floor(Math.sqrt(n / squares));
  while (surficialSize(m, kLow + 1) <= n) kLow++;
  while (kLow > 0 && surficialSize(m, kLow) > n) kLow--;
  const exact = kLow >= 1 && surficialSize(m, kLow) === n;
  let k: number;
  if (exact) k = kLow;
  else if (fit === 'subset') {
    if (kLow < 1) {
      throw new ConfigurationError(
        `surficial(n, m): n = ${n} is smaller than the smallest surficial system for m = ${m} (n = ${surficialSize(m, 1)}, k = 1)`,
      );
    }
    k = kLow;
  } else if (fit === 'wrap') k = kLow + 1;
  else {
    const near = [kLow, kLow + 1].filter((x) => x >= 1).map((x) => `n = ${surficialSize(m, x)} (k = ${x})`);
    throw new ConfigurationError(
      `surficial(n, m): n = ${n} is not k²·m(m−1)/2 for an integer k with m = ${m}; nearest sizes that fit: ${near.join(' or ')}; ` +
        `or pass { fit: 'subset' } (leave extra processes out of the quorums) or { fit: 'wrap' } (map nodes to processes mod n)`,
    );
  }
  // node id of p^{i,j}_{r,s}, all 1-based
  const squareBase = new Map<string, number>();
  let next = 0;
  for (let i = 1; i <= m - 1; i++) {
    for (let j = i; j <= m - 1; j++) {
      squareBase.set(`${i},${j}`, next);
      next += k * k;
    }
  }
  const node = (i: number, j: number, r: number, s: number) =>
    squareBase.get(`${i},${j}`)! + (r - 1) * k + (s - 1);
  const nodes = next;
  const toProcess = (t: number) => (fit === 'wrap' && !exact ? t % n : t);
  const cartels: ProcessId[][][] = [];
  for (let i = 1; i <= m; i++) {
    const cartel: ProcessId[][] = [];
    for (let j = 1; j <= k; j++) {
      const q = new Set<ProcessId>();
      for (let s = 1; s <= i - 1; s++) for (let r = 1; r <= k; r++) q.add(toProcess(node(s, i - 1, r, j)));
      for (let s = i; s <= m - 1; s++) for (let r = 1; r <= k; r++) q.add(toProcess(node(i, s, j, r)));
      cartel.push([...q].sort((a, b) => a - b));
    }
    cartels.push(cartel);
  }
  const how = exact
    ? ''
    : fit === 'subset'
      ? ` (squares cover ${nodes} of ${n} processes)`
      : ` (${nodes} nodes mapped mod ${n})`;
  if (fit === 'wrap' && !exact) {
    // Per cartel: quorums that contain another quorum of the cartel are dropped.
    for (let g = 0; g < cartels.length; g++) {
      const min = minimizeAssignment(n, cartels[g]!);
      cartels[g] = dedupe(min).quorums as ProcessId[][];
    }
  }
  return buildGroup(n, 'surficial', `surficial m=${m}, k=${k}${how}`, cartels);
}

// ───────────────────────────── degree ─────────────────────────────

/** The outcome of {@link degree}. */
export interface DegreeResult {
  /** The largest number of pairwise disjoint quora found. */
  readonly degree: number;
  /** True when proven maximum (search finished within the budget or met the upper bound). */
  readonly exact: boolean;
  /** An upper bound: `min(|C|, ⌊|∪C| / min |Q|⌋)` or the exact degree. */
  readonly upperBound: number;
  /** Indices (into the given list; repeated quorums count once) of `degree` pairwise disjoint quora. */
  readonly quora: readonly number[];
}

/**
 * deg(C) of a cartel (group-mutex paper, Def. 2): the maximum number of pairwise disjoint quora.
 *
 * Method: branch and bound over quora in order of size (a maximum-independent-set search on the
 * "meet" graph with bitsets), bounded by the number of remaining candidates and by how many of the
 * smallest remaining quora still fit in the unused processes. Exact within `budget` search nodes
 * (default 1,000,000); past it the best packing found is returned with `exact: false` and an
 * upper bound `min(|C|, ⌊|∪C| / min |Q|⌋)`.
 *
 * @param cartel the quora of one cartel (any list of non-empty process sets).
 * @param n number of processes (defaults to 1 + the largest id).
 * @throws CoterieError if a quorum is empty or has an id out of range.
 */
export function degree(
  cartel: readonly (readonly ProcessId[])[],
  n?: number,
  options: { readonly budget?: number } = {},
): DegreeResult {
  const nn = n ?? 1 + Math.max(0, ...cartel.map((q) => Math.max(...q)));
  const norm = normalizeQuorums(nn, cartel);
  if (!norm.ok) throw new CoterieError(`degree: ${describeStructural(norm.violation, nn)}`);
  const { quorums, index } = dedupe(norm.quorums);
  // first position in the caller's list of each distinct quorum
  const original = new Int32Array(quorums.length).fill(-1);
  index.forEach((j, t) => {
    if (original[j] === -1) original[j] = t;
  });
  const m = quorums.length;
  const p = prepare(nn, quorums);
  if (findDisjointPair(p) === undefined) {
    // pairwise intersecting (e.g. a cartel of T_m(C)): one quorum at a time
    return { degree: 1, exact: true, upperBound: 1, quora: [0] };
  }
  const order = Array.from({ length: m }, (_, j) => j).sort((a, b) => p.sizes[a]! - p.sizes[b]! || a - b);
  // conflict[a] = bitset over positions in `order` of quora meeting order[a]
  const wm = wordsFor(m);
  const meets: Uint32Array[] = order.map((a) => {
    const row = new Uint32Array(wm);
    order.forEach((b, t) => {
      if (intersects(p.bits[a]!, p.bits[b]!)) row[t >>> 5]! |= 1 << (t & 31);
    });
    return row;
  });
  const support = new Uint32Array(p.bits[0]!.length);
  for (const b of p.bits) for (let w = 0; w < support.length; w++) support[w]! |= b[w]!;
  const supportSize = popcount(support);
  const upper = Math.min(m, Math.floor(supportSize / p.minSize));
  const budget = options.budget ?? 1_000_000;
  let best: number[] = [];
  const chosen: number[] = [];
  let nodes = 0;
  const sizesInOrder = order.map((a) => p.sizes[a]!);
  const search = (cand: Uint32Array, used: number) => {
    if (++nodes > budget || best.length === upper) return;
    if (chosen.length > best.length) best = chosen.slice();
    // bound: smallest candidates that still fit in the unused processes
    let fit = 0;
    let room = supportSize - used;
    let count = 0;
    for (let t = nextSetBit(cand, 0); t >= 0; t = nextSetBit(cand, t + 1)) {
      count++;
      if (sizesInOrder[t]! <= room) {
        room -= sizesInOrder[t]!;
        fit++;
      }
    }
    if (chosen.length + Math.min(count, fit) <= best.length) return;
    for (let t = nextSetBit(cand, 0); t >= 0; t = nextSetBit(cand, t + 1)) {
      // candidates after position t (each packing is enumerated once) that miss quorum t
      const nextCand = new Uint32Array(wm);
      const tw = t >>> 5;
      for (let w = tw; w < wm; w++) nextCand[w] = cand[w]! & ~meets[t]![w]!;
      nextCand[tw]! &= (t & 31) === 31 ? 0 : ~0 << ((t & 31) + 1);
      chosen.push(order[t]!);
      search(nextCand, used + sizesInOrder[t]!);
      chosen.pop();
      if (nodes > budget || best.length === upper) return;
    }
  };
  const all = new Uint32Array(wm);
  for (let t = 0; t < m; t++) all[t >>> 5]! |= 1 << (t & 31);
  search(all, 0);
  const exact = nodes <= budget || best.length === upper;
  return {
    degree: best.length,
    exact,
    upperBound: exact ? best.length : upper,
    quora: best.map((j) => original[j]!).sort((a, b) => a - b),
  };
}

/**
 * deg(C) of a group quorum system (Def. 2): the minimum degree over its cartels, with each
 * cartel's result.
 */
export function groupDegree(
  g: GroupQuorumSystem,
  options: { readonly budget?: number } = {},
): {
  readonly degree: number;
  readonly exact: boolean;
  readonly cartels: readonly DegreeResult[];
} {
  const cartels = g.cartels.map((c) => degree(c, g.n, options));
  return {
    degree: Math.min(...cartels.map((c) => c.degree)),
    exact: cartels.every((c) => c.exact),
    cartels,
  };
}
