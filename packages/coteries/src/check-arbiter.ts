/**
 * k-arbiter and (h,k)-arbiter validation — h-out-of-k paper, Def. 2 (k-arbiter), Defs. 3–5 and
 * Theorems 1–2 (the intersection property over critical conflicting request patterns).
 *
 * Method, per critical pattern cr_k (a bag of unit counts) — is there a quorum assignment (one
 * quorum of Q_{h,k} per request h ∈ cr_k, Def. 5) whose quorums have an empty intersection?
 * 1. Counting proof (the argument of Theorem 3): if Σ_{h∈cr_k} max_{q∈Q_{h,k}} (n − |q|) < n, some
 *    process lies in every quorum of every assignment.
 * 2. Otherwise exhaustive search: depth-first over assignments (requests with the same h take
 *    distinct quorums in increasing index order — repeating a quorum never empties an
 *    intersection), intersecting bitsets, pruned when the remaining requests cannot remove the
 *    survivors (Σ over remaining h of max_q |I \ q| < |I|). Exact within `budget` nodes.
 * 3. Past the budget: `samples` seeded random assignments; a hit is a definite counterexample, no
 *    hit is reported with `exact: false`.
 */
import { ConfigurationError, CoterieError, type ProcessId } from '@critsec/core';
import { isSubset } from './bitset.js';
import { checkCoterie } from './check-coterie.js';
import { type HKArbiter, hkSetsFromAssignments, type HKArbiterJSON, makeHKArbiter } from './arbiter.js';
import { formatBag, formatSet } from './format.js';
import {
  describeStructural,
  normalizeQuorums,
  prepare,
  type QuorumRef,
  type QuorumSet,
  refOf,
} from './prepared.js';
import { type Family, solvePattern } from './pattern-search.js';
import { criticalConflictingPatterns } from './request-patterns.js';

/** Search limits of {@link checkKArbiter} and {@link checkHKArbiter}. */
export interface ArbiterCheckOptions {
  /** Search nodes per pattern before falling back to sampling (default 2,000,000). */
  readonly budget?: number;
  /** Random assignments tried per pattern past the budget (default 20,000). */
  readonly samples?: number;
  /** Seed of the sampler (default 1). */
  readonly seed?: number;
}

/** A quorum assignment whose quorums share no process. */
export interface ArbiterViolation {
  /** The critical conflicting request pattern (bag of unit counts, ascending). */
  readonly pattern: readonly number[];
  /** One quorum per request of the pattern: the unit count h and the quorum of Q_{h,k}. */
  readonly quorums: readonly {
    /** The request's unit count. */
    readonly h: number;
    /** The quorum of Q_{h,k} chosen for it. */
    readonly quorum: QuorumRef;
  }[];
}

/** The outcome of an arbiter check. */
export interface ArbiterCheck {
  /** No violation found (a proof when `exact`). */
  readonly ok: boolean;
  /** True when every pattern was settled by the counting proof or exhaustive search. */
  readonly exact: boolean;
  /** The verdict in words, naming the violation if any. */
  readonly message: string;
  /** Critical conflicting patterns considered. */
  readonly patterns: number;
  /** Patterns settled by the counting bound / exhaustive search / sampling only. */
  readonly byCounting: number;
  /** Patterns settled by exhaustive search. */
  readonly bySearch: number;
  /** Patterns checked by sampling only (no proof). */
  readonly bySampling: number;
  /** The violation found, when not `ok`. */
  readonly violation?: ArbiterViolation;
}

function runPatterns(
  n: number,
  patterns: readonly (readonly number[])[],
  familyOf: (h: number) => Family,
  options: ArbiterCheckOptions,
  what: string,
): ArbiterCheck {
  const opts: Required<ArbiterCheckOptions> = {
    budget: options.budget ?? 2_000_000,
    samples: options.samples ?? 20_000,
    seed: options.seed ?? 1,
  };
  let byCounting = 0;
  let bySearch = 0;
  let bySampling = 0;
  for (const pattern of patterns) {
    const r = solvePattern(n, pattern, familyOf, opts);
    if (r.kind === 'violation') {
      const quorums = r.picks.map(([f, j]) => ({ h: f.h, quorum: refOf(f.owner, f.p.quorums, j) }));
      const list = quorums.map((x) => `${x.quorum.label} (h = ${x.h})`).join(', ');
      return {
        ok: false,
        exact: true,
        message: `not a ${what}: for the critical conflicting request pattern ${formatBag(pattern)} the quorums ${list} share no process, so all ${pattern.length} requests could be granted at once (Theorem 1)`,
        patterns: patterns.length,
        byCounting,
        bySearch,
        bySampling,
        violation: { pattern: [...pattern], quorums },
      };
    }
    if (r.kind === 'safe' && r.how === 'counting') byCounting++;
    else if (r.kind === 'safe') bySearch++;
    else bySampling++;
  }
  const exact = bySampling === 0;
  return {
    ok: true,
    exact,
    message: exact
      ? `valid ${what}: all ${patterns.length} critical conflicting request pattern${patterns.length === 1 ? '' : 's'} checked (${byCounting} by the counting bound, ${bySearch} by exhaustive search)`
      : `no violation found for the ${what} property, but ${bySampling} of ${patterns.length} pattern${patterns.length === 1 ? '' : 's'} exceeded the search budget and were only sampled (${opts.samples} random assignments each, seed ${opts.seed}); not a proof`,
    patterns: patterns.length,
    byCounting,
    bySearch,
    bySampling,
  };
}

function familyFrom(h: number, sys: QuorumSet): Family {
  return { h, owner: sys, p: prepare(sys.n, sys.quorums) };
}

/**
 * Checks Def. 2 of the h-out-of-k paper: every k + 1 quorums of `c` share a process (the critical
 * pattern {1, …, 1} of k + 1 requests), plus nonemptiness and minimality. Exact by the counting
 * bound or exhaustive search within `budget`; past it, sampled (`exact: false`).
 * @throws ConfigurationError if k is not an integer ≥ 1.
 */
export function checkKArbiter(c: QuorumSet, k: number, options: ArbiterCheckOptions = {}): ArbiterCheck {
  if (!Number.isSafeInteger(k) || k < 1)
    throw new ConfigurationError(`checkKArbiter: k must be an integer ≥ 1, got ${String(k)}`);
  const base = checkCoterie(c);
  if (!base.ok && base.violation.kind !== 'not-intersecting') {
    return {
      ok: false,
      exact: true,
      message: `not a ${k}-arbiter: ${base.message}`,
      patterns: 0,
      byCounting: 0,
      bySearch: 0,
      bySampling: 0,
    };
  }
  const fam = familyFrom(1, c);
  return runPatterns(c.n, [Array.from({ length: k + 1 }, () => 1)], () => fam, options, `${k}-arbiter`);
}

/** Quorum sets of an (h,k)-arbiter given without an assignment: `sets[h-1]` is `Q_{h,k}`. */
export interface HKQuorumSets {
  /** Number of processes. */
  readonly n: number;
  /** `sets[h − 1]`: the quorums of Q_{h,k}, for h = 1 … k. */
  readonly sets: readonly (readonly (readonly ProcessId[])[])[];
  /**
   * Optional: `families[h-1]` is the construction's whole quorum family the quorums of
   * `sets[h-1]` were drawn from; a quorum of `sets[h-1]` that properly contains one of them is
   * reported as not minimal.
   */
  readonly families?: readonly (readonly (readonly ProcessId[])[] | undefined)[];
}

/**
 * The first quorum of `set` that properly contains a quorum of `family`, as a message, or null.
 * Minimality of Sec. 3.3 ("removing q' if q ⊂ q' for some q, q' ∈ Q_{h,k}") judged against the
 * whole family, not only the quorums assigned.
 */
function familyNonMinimal(
  n: number,
  h: number,
  k: number,
  set: QuorumSet,
  family: readonly (readonly ProcessId[])[],
): string | null {
  const norm = normalizeQuorums(n, family, undefined);
  if (!norm.ok) return `the quorum family of Q_{${h},${k}}: ${describeStructural(norm.violation, n)}`;
  const fam = prepare(n, norm.quorums);
  const assigned = prepare(n, set.quorums);
  for (let a = 0; a < assigned.quorums.length; a++) {
    for (let b = 0; b < fam.quorums.length; b++) {
      if (fam.sizes[b]! >= assigned.sizes[a]! || !isSubset(fam.bits[b]!, assigned.bits[a]!)) continue;
      const q = refOf(set, set.quorums, a);
      return `in Q_{${h},${k}}: ${q.label} (${assigned.sizes[a]} processes) properly contains the quorum ${formatSet(fam.quorums[b]!)} (${fam.sizes[b]} processes) of the same family; no quorum may contain another (minimality, Sec. 3.3): use the smaller one in its place`;
    }
  }
  return null;
}

/**
 * Checks the (h,k)-arbiter intersection property of Theorem 1 over every critical conflicting
 * request pattern for k (Defs. 3–5, enumerated with Theorem 2's bound Σh ≤ k + min h), plus
 * nonemptiness and minimality of every `Q_{h,k}` — among its quorums and, when the construction's
 * whole family is known (`arbiter.quorumFamily(h)`, e.g. the (k+1)-cube's a^(k+1) tuple quorums, or
 * `families` of {@link HKQuorumSets}), against that family: a quorum that properly contains a
 * family quorum is reported (`ok: false`, the message names both).
 *
 * @param q an {@link HKArbiter} or `{ n, sets }` with `sets[h-1] = Q_{h,k}`.
 * @param k number of units (defaults to `q.k`, or the number of sets).
 * @throws ConfigurationError if k is not an integer in 1..64 or does not match the number of sets.
 */
export function checkHKArbiter(
  q: HKArbiter | HKQuorumSets,
  k?: number,
  options: ArbiterCheckOptions = {},
): ArbiterCheck {
  const sets: QuorumSet[] =
    'sets' in q
      ? q.sets.map((s) => ({ n: q.n, quorums: s }))
      : Array.from({ length: q.k }, (_, t) => q.quorumSet(t + 1));
  const kk = k ?? ('k' in q ? q.k : sets.length);
  if (!Number.isSafeInteger(kk) || kk < 1 || kk > 64) {
    throw new ConfigurationError(`checkHKArbiter: k must be an integer in 1..64, got ${String(kk)}`);
  }
  if (sets.length !== kk) {
    throw new ConfigurationError(
      `checkHKArbiter: an (h,k)-arbiter for k = ${kk} has ${kk} quorum sets Q_{1,k}..Q_{k,k}, got ${sets.length}`,
    );
  }
  const empty = { patterns: 0, byCounting: 0, bySearch: 0, bySampling: 0 };
  for (let h = 1; h <= kk; h++) {
    const r = checkCoterie(sets[h - 1]!);
    if (!r.ok && r.violation.kind !== 'not-intersecting') {
      return {
        ok: false,
        exact: true,
        message: `not a (h,k)-arbiter: in Q_{${h},${kk}}: ${r.message}`,
        ...empty,
      };
    }
  }
  for (let h = 1; h <= kk; h++) {
    const family = 'sets' in q ? q.families?.[h - 1] : q.quorumFamily?.(h);
    const why = family === undefined ? null : familyNonMinimal(q.n, h, kk, sets[h - 1]!, family);
    if (why !== null) return { ok: false, exact: true, message: `not a (h,k)-arbiter: ${why}`, ...empty };
  }
  const fams = sets.map((s, t) => familyFrom(t + 1, s));
  return runPatterns(q.n, criticalConflictingPatterns(kk), (h) => fams[h - 1]!, options, `(h,${kk})-arbiter`);
}

/**
 * An (h,k)-arbiter from per-process assignments: `assignments[h-1][i]` is the quorum `P_i` uses
 * for h units. Validated: each `Q_{h,k}` as a coterie, then {@link checkHKArbiter}.
 * @throws CoterieError if it is not an (h,k)-arbiter (or the check could not prove it within the budget).
 */
export function fromHKQuorums(
  n: number,
  k: number,
  assignments: readonly (readonly (readonly ProcessId[])[])[],
  options: ArbiterCheckOptions = {},
  kind = 'custom',
): HKArbiter {
  const sets = hkSetsFromAssignments(n, k, assignments, kind);
  const arb = makeHKArbiter(n, k, kind, `${kind} (h,k)-arbiter k=${k} n=${n}`, sets);
  const r = checkHKArbiter(arb, k, options);
  if (!r.ok || !r.exact) throw new CoterieError(r.message);
  return arb;
}

/**
 * Reads an (h,k)-arbiter written by {@link HKArbiter.toJSON} (`{ n, k, kind?, assignments }`) and
 * validates it like {@link fromHKQuorums}.
 * @throws CoterieError if the value does not have that shape or is not an (h,k)-arbiter.
 */
export function hkArbiterFromJSON(json: unknown, options: ArbiterCheckOptions = {}): HKArbiter {
  const expected =
    'expected { "n": <integer ≥ 1>, "k": <integer ≥ 1>, "kind"?: <string>, "assignments": [<Q_1 per process>, …, <Q_k per process>] }';
  const o = (typeof json === 'string' ? safeParse(json, expected) : json) as Partial<HKArbiterJSON> | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new CoterieError(`(h,k)-arbiter JSON must be an object; ${expected}`);
  if (typeof o.n !== 'number' || !Number.isSafeInteger(o.n) || o.n < 1)
    throw new CoterieError(
      `(h,k)-arbiter JSON: "n" must be an integer ≥ 1, got ${JSON.stringify(o.n)}; ${expected}`,
    );
  if (typeof o.k !== 'number' || !Number.isSafeInteger(o.k) || o.k < 1)
    throw new CoterieError(
      `(h,k)-arbiter JSON: "k" must be an integer ≥ 1, got ${JSON.stringify(o.k)}; ${expected}`,
    );
  if (o.kind !== undefined && typeof o.kind !== 'string')
    throw new CoterieError(`(h,k)-arbiter JSON: "kind" must be a string; ${expected}`);
  if (!Array.isArray(o.assignments))
    throw new CoterieError(
      `(h,k)-arbiter JSON: "assignments" must be an array of k = ${o.k} assignments; ${expected}`,
    );
  return fromHKQuorums(o.n, o.k, o.assignments, options, o.kind ?? 'custom');
}

function safeParse(text: string, expected: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CoterieError(`JSON does not parse: ${(err as Error).message}; ${expected}`, { cause: err });
  }
}
