/**
 * Group quorum systems — Joung, "Quorum-based algorithms for group mutual exclusion", IEEE TPDS
 * 14(5), 2003, Sec. 3: m-group quorum systems (Def. 1) — the object, its JSON form, custom
 * systems and the transform T_m(C) = (C, …, C). Groups and cartels are numbered 0..m-1 here
 * (1..m in the paper). Validation (Def. 1) is in `group-check.ts`, degree (Def. 2) in
 * `group-degree.ts`, the surficial system (Fig. 3, Theorem 1) in `surficial.ts`.
 */
import { ConfigurationError, CoterieError, type ProcessId } from '@critsec/core';
import { isValidN } from '@critsec/core/kit';
import { findDisjointPair } from './check-coterie.js';
import { badProcess, type Coterie } from './coterie.js';
import { formatSet } from './format.js';
import { prepare } from './prepared.js';
import { type CartelQuorumRef, checkNormalized, normalizeCartels } from './group-check.js';

/**
 * The JSON form of a group quorum system: `cartels[g]` lists cartel g's quorums and
 * `assignment[i][g]` is the index (into `cartels[g]`) of the quorum `P_i` uses for group g.
 */
export interface GroupQuorumSystemJSON {
  /** Number of processes. */
  readonly n: number;
  /** Number of groups (cartels). */
  readonly m: number;
  /** The construction (`GroupQuorumSystem.kind`). */
  readonly kind: string;
  /** `cartels[g]`: the distinct quorums of cartel g. */
  readonly cartels: readonly (readonly (readonly ProcessId[])[])[];
  /** `assignment[i][g]`: the index in `cartels[g]` of the quorum `P_i` acquires for group g. */
  readonly assignment: readonly (readonly number[])[];
}

/**
 * An m-group quorum system C = (C_0, …, C_{m-1}) over processes 0..n-1 (group-mutex paper,
 * Def. 1): quorums of different cartels intersect; each cartel is minimal. Each process has a fixed
 * quorum per group: a process requesting group g acquires `quorumOf(i, g)` ∈ C_g (as Maekawa_M and
 * Maekawa_S do, Sec. 4). Quorums of one cartel need not meet — that is what lets a group enter
 * concurrently.
 */
export interface GroupQuorumSystem {
  /** Number of processes. */
  readonly n: number;
  /** Number of groups (cartels). */
  readonly m: number;
  /** `'surficial'`, `'coterie-transform'`, `'custom'`. */
  readonly kind: string;
  /** The construction and its parameters in words. */
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
  /** The system as plain data. */
  toJSON(): GroupQuorumSystemJSON;
}

/**
 * True when `x` has the shape of a {@link GroupQuorumSystem} (`n`, `m`, `cartels`, `quorumOf`).
 */
export function isGroupQuorumSystem(x: unknown): x is GroupQuorumSystem {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as GroupQuorumSystem).n === 'number' &&
    typeof (x as GroupQuorumSystem).m === 'number' &&
    Array.isArray((x as GroupQuorumSystem).cartels) &&
    typeof (x as GroupQuorumSystem).quorumOf === 'function'
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

export function buildGroup(
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
