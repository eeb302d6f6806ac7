/**
 * Normalized, bitset-backed views of quorum lists, cached per quorum array. Every validator and
 * metric starts here. Internal to the package.
 */
import type { ProcessId } from '@critsec/core';
import { isValidN } from '@critsec/core/kit';
import { bitsetOf, wordsFor } from './bitset.js';
import { formatSet } from './format.js';

/** Anything with `n` and a list of quorums (a {@link Coterie} is one). */
export interface QuorumSet {
  /** Number of processes; processes are `0..n-1`. */
  readonly n: number;
  /** The quorums, each a list of process ids. */
  readonly quorums: readonly (readonly ProcessId[])[];
}

/** A quorum named in a validator's result. */
export interface QuorumRef {
  /** Index into the checked list of quorums. */
  readonly index: number;
  /** The quorum's members, sorted ascending. */
  readonly members: readonly ProcessId[];
  /** The first process assigned this quorum (`P_i` using `Q_i`), when the system has an assignment. */
  readonly usedBy?: ProcessId;
  /** How messages name it: `Q_3` (quorum of `P_3`) or `quorum #3`. */
  readonly label: string;
}

/** A structural defect: a quorum that is not a non-empty set of processes `0..n-1`. */
export type StructuralViolation =
  | {
      /** n is not an integer ≥ 1. */
      readonly kind: 'bad-n';
      /** The n given. */
      readonly n: unknown;
    }
  | {
      /** The list of quorums is empty. */
      readonly kind: 'no-quorums';
    }
  | {
      /** A quorum has no member. */
      readonly kind: 'empty';
      /** The empty quorum. */
      readonly quorum: QuorumRef;
    }
  | {
      /** A member is not a process id `0..n-1`. */
      readonly kind: 'out-of-range';
      /** The quorum it is in. */
      readonly quorum: QuorumRef;
      /** The offending member. */
      readonly process: unknown;
    }
  | {
      /** A process is listed twice in one quorum. */
      readonly kind: 'duplicate-member';
      /** The quorum it is in. */
      readonly quorum: QuorumRef;
      /** The repeated process. */
      readonly process: ProcessId;
    };

export interface Prepared {
  readonly n: number;
  readonly quorums: readonly (readonly ProcessId[])[];
  readonly bits: readonly Uint32Array[];
  readonly sizes: Int32Array;
  readonly minSize: number;
  readonly maxSize: number;
  readonly totalSize: number;
  /** `holders[p]` = bitset over quorum indices of the quorums containing `p` (lazy). */
  holders(): readonly Uint32Array[];
}

/** First process using each quorum index, registered by the classes that own an assignment. */
export const firstUsers = new WeakMap<object, Int32Array>();

export function refOf(
  owner: object | undefined,
  quorums: readonly (readonly ProcessId[])[],
  index: number,
): QuorumRef {
  const members = quorums[index] ?? [];
  const users = owner === undefined ? undefined : firstUsers.get(owner);
  const usedBy = users?.[index];
  if (usedBy !== undefined && usedBy >= 0) {
    return { index, members, usedBy, label: `Q_${usedBy} = ${formatSet(members)}` };
  }
  return { index, members, label: `quorum #${index} = ${formatSet(members)}` };
}

function strictlyIncreasingInRange(q: readonly unknown[], n: number): boolean {
  let prev = -1;
  for (const p of q) {
    if (typeof p !== 'number' || !Number.isInteger(p) || p <= prev || p >= n) return false;
    prev = p;
  }
  return true;
}

/**
 * Checks that every quorum is a non-empty set of processes in `0..n-1` and returns the quorums
 * sorted (the input arrays themselves when they already are).
 */
export function normalizeQuorums(
  n: unknown,
  quorums: readonly (readonly unknown[])[],
  owner?: object,
): { ok: true; quorums: readonly (readonly ProcessId[])[] } | { ok: false; violation: StructuralViolation } {
  if (!isValidN(n)) return { ok: false, violation: { kind: 'bad-n', n } };
  if (quorums.length === 0) return { ok: false, violation: { kind: 'no-quorums' } };
  const out: (readonly ProcessId[])[] = [];
  let changed = false;
  for (let j = 0; j < quorums.length; j++) {
    const q = quorums[j]!;
    if (q.length === 0)
      return { ok: false, violation: { kind: 'empty', quorum: refOf(owner, quorums as never, j) } };
    if (strictlyIncreasingInRange(q, n)) {
      out.push(q as readonly ProcessId[]);
      continue;
    }
    for (const p of q) {
      if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p >= n) {
        return {
          ok: false,
          violation: { kind: 'out-of-range', quorum: refOf(owner, quorums as never, j), process: p },
        };
      }
    }
    const sorted = (q as readonly number[]).slice().sort((a, b) => a - b);
    for (let t = 1; t < sorted.length; t++) {
      if (sorted[t] === sorted[t - 1]) {
        const quorum = { ...refOf(owner, quorums as never, j), members: sorted };
        return { ok: false, violation: { kind: 'duplicate-member', quorum, process: sorted[t]! } };
      }
    }
    out.push(sorted);
    changed = true;
  }
  // Hand back the caller's own array when nothing changed, so per-array caches keep working.
  return { ok: true, quorums: changed ? out : (quorums as readonly (readonly ProcessId[])[]) };
}

export function describeStructural(v: StructuralViolation, n: unknown): string {
  switch (v.kind) {
    case 'bad-n':
      return `n must be an integer ≥ 1 (processes are 0..n-1), got ${String(v.n)}`;
    case 'no-quorums':
      return 'the system has no quorums; a coterie needs at least one non-empty quorum';
    case 'empty':
      return `${v.quorum.label.replace(/ = .*/, '')} is empty; every quorum needs at least one process (nonemptiness)`;
    case 'out-of-range':
      return `${v.quorum.label.replace(/ = .*/, '')} contains ${JSON.stringify(v.process)}, but processes are the integers 0..${Number(n) - 1}`;
    case 'duplicate-member':
      return `${v.quorum.label.replace(/ = .*/, '')} lists process ${v.process} twice; a quorum is a set of distinct processes`;
  }
}

const cache = new WeakMap<object, Prepared>();

/** Bitsets and sizes of already-normalized quorums, cached per quorum array. */
export function prepare(n: number, quorums: readonly (readonly ProcessId[])[]): Prepared {
  const hit = cache.get(quorums);
  if (hit !== undefined && hit.n === n) return hit;
  const m = quorums.length;
  const sizes = new Int32Array(m);
  const bits: Uint32Array[] = new Array(m);
  let minSize = Number.POSITIVE_INFINITY;
  let maxSize = 0;
  let totalSize = 0;
  for (let j = 0; j < m; j++) {
    const q = quorums[j]!;
    sizes[j] = q.length;
    bits[j] = bitsetOf(q, n);
    minSize = Math.min(minSize, q.length);
    maxSize = Math.max(maxSize, q.length);
    totalSize += q.length;
  }
  let holders: Uint32Array[] | undefined;
  const prepared: Prepared = {
    n,
    quorums,
    bits,
    sizes,
    minSize: m === 0 ? 0 : minSize,
    maxSize,
    totalSize,
    holders() {
      if (holders === undefined) {
        const wm = wordsFor(m);
        holders = Array.from({ length: n }, () => new Uint32Array(wm));
        for (let j = 0; j < m; j++) {
          const word = j >>> 5;
          const bit = 1 << (j & 31);
          for (const p of quorums[j]!) holders[p]![word]! |= bit;
        }
      }
      return holders;
    },
  };
  cache.set(quorums, prepared);
  return prepared;
}
