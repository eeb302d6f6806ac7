/**
 * Literature quorum families: the whole quorum system a construction is named after, as opposed
 * to the per-process assignment a {@link Coterie} carries. `majority(n)` assigns n cyclic windows
 * and `tree(n)` root-to-leaf paths — what Maekawa and MUTIN use, since `P_i` always asks its own
 * `Q_i` — while the majority coterie of the literature has every majority as a quorum and the
 * Agrawal–El Abbadi tree protocol substitutes a failed node by paths through both its children.
 * Their fault tolerance, load and availability are the figures the literature quotes; this file
 * computes them by closed forms at any n, and enumerates the family for small n so that the
 * brute-force metrics of `metrics.ts` can be run on it.
 */
import { ConfigurationError } from '@critsec/core';
import type { Coterie, QuorumFamily } from './coterie.js';

export type { QuorumFamily } from './coterie.js';
import { majorityFigures, majorityQuorums } from './family-majority.js';
import { treeFigures, treeQuorums } from './family-tree.js';
import type { QuorumSet } from './prepared.js';

/** Figures of one quorum system, with the conventions of `metrics.ts`. */
export interface QuorumFigures {
  /** Number of distinct quorums (a double: exact while ≤ 2^53, `Infinity` past ~1.8·10³⁰⁸). */
  readonly quorumCount: number;
  /** Smallest and largest quorum size. */
  readonly quorumSize: {
    /** Smallest quorum size. */
    readonly min: number;
    /** Largest quorum size. */
    readonly max: number;
  };
  /** The fewest crashes that hit every quorum (the system survives any `faultTolerance − 1`). */
  readonly faultTolerance: number;
  /** The Naor–Wool optimal load. */
  readonly load: number;
  /** Probability that some quorum has no crashed member, each process crashing independently. */
  readonly availability: number;
}

/** The outcome of {@link familyMetrics}: exact closed forms for the whole family. */
export interface FamilyMetrics extends QuorumFigures {
  /** The family measured. */
  readonly family: QuorumFamily;
  /** The crash probability `availability` is computed at. */
  readonly crashProbability: number;
}

function resolve(source: QuorumFamily | Coterie, fn: string): { family: QuorumFamily; h: number } {
  let family: QuorumFamily | undefined;
  if (typeof source === 'object' && source !== null && typeof (source as Coterie).quorumOf === 'function') {
    family = (source as Coterie).family;
    if (family === undefined) {
      throw new ConfigurationError(
        `${fn}: ${(source as Coterie).description} has no literature family; only majority(n) and tree(n) carry one (Coterie.family)`,
      );
    }
  } else family = source as QuorumFamily;
  const n = family?.n;
  if (family?.kind === 'majority' && Number.isSafeInteger(n) && n >= 1) return { family, h: 0 };
  if (family?.kind === 'tree' && Number.isSafeInteger(n) && n >= 1 && ((n + 1) & n) === 0 && n < 2 ** 31) {
    return { family, h: Math.log2(n + 1) };
  }
  throw new ConfigurationError(
    `${fn}: expected { kind: 'majority', n: <integer ≥ 1> } or { kind: 'tree', n: 2^h − 1 < 2^31 }, got ${JSON.stringify(family)}`,
  );
}

/**
 * Fault tolerance, optimal load and availability of a literature quorum family, by closed forms
 * (any n, O(n) time). With the conventions of `faultTolerance`, `optimalLoad` and `availability`:
 *
 * | family | fault tolerance | load | availability (up = 1 − crashProbability) |
 * | --- | --- | --- | --- |
 * | majority, n odd | (n+1)/2 = ⌈n/2⌉ | ((n+1)/2)/n | P(Bin(n, up) ≥ (n+1)/2) |
 * | majority, n = 2h ≥ 4 | h = ⌈n/2⌉ | (h+1)/(2h+1) | up·P(Bin(n−1, up) ≥ h−1) + (1−up)·P(Bin(n−1, up) ≥ h+1) |
 * | tree, n = 2^h − 1 | h | 2/(h+1) | A(h): A(1) = up, A(h) = up·(1−(1−A(h−1))²) + (1−up)·A(h−1)² |
 *
 * (majority(2) is the single quorum {P_0}: fault tolerance 1, load 1.)
 *
 * @param source a {@link QuorumFamily}, or a coterie carrying one (`majority(n)`, `tree(n)`).
 * @param crashProbability each process crashes independently with this probability, in [0, 1].
 * @throws ConfigurationError if the coterie has no family, the family is malformed (tree: n not
 *   2^h − 1), or `crashProbability` is not in [0, 1].
 * @example
 * ```ts
 * familyMetrics(majority(15), 0.1); // { faultTolerance: 8, load: 0.5333…, availability: 0.999966…, … }
 * familyMetrics(tree(15), 0.1);     // { faultTolerance: 4, load: 0.4, availability: 0.99872…, … }
 * ```
 */
export function familyMetrics(source: QuorumFamily | Coterie, crashProbability: number): FamilyMetrics {
  const { family, h } = resolve(source, 'familyMetrics');
  if (typeof crashProbability !== 'number' || !(crashProbability >= 0 && crashProbability <= 1)) {
    throw new ConfigurationError(
      `familyMetrics: the crash probability must be a number in [0, 1], got ${String(crashProbability)}`,
    );
  }
  const f =
    family.kind === 'majority'
      ? majorityFigures(family.n, crashProbability)
      : treeFigures(h, crashProbability);
  return {
    family,
    crashProbability,
    quorumCount: f.quorumCount,
    quorumSize: { min: f.minSize, max: f.maxSize },
    faultTolerance: f.faultTolerance,
    load: f.load,
    availability: f.availability,
  };
}

/**
 * Every quorum of a literature family, as a {@link QuorumSet} the metrics of `metrics.ts`
 * (`faultTolerance`, `optimalLoad`, `availability`, `checkCoterie`, …) accept — for small n: the
 * family grows like C(n, n/2) (majority) or 2^(2^(h−1)) (tree). Quorums are sorted ascending;
 * the result is frozen.
 *
 * @param options.maxQuorums refuse families with more quorums than this (default 100,000;
 *   majority up to n = 19, tree up to n = 31).
 * @throws ConfigurationError if the family is malformed, or it has more than `maxQuorums` quorums.
 */
export function familyQuorums(
  source: QuorumFamily | Coterie,
  options: { readonly maxQuorums?: number } = {},
): QuorumSet {
  const { family, h } = resolve(source, 'familyQuorums');
  const max = options.maxQuorums ?? 100_000;
  const count = (family.kind === 'majority' ? majorityFigures(family.n, 0) : treeFigures(h, 0)).quorumCount;
  if (count > max) {
    throw new ConfigurationError(
      `familyQuorums: the ${family.kind} family over n = ${family.n} has ${count} quorums, more than maxQuorums = ${max}; use familyMetrics for its closed forms, or raise options.maxQuorums`,
    );
  }
  const quorums = family.kind === 'majority' ? majorityQuorums(family.n) : treeQuorums(family.n);
  for (const q of quorums) Object.freeze(q);
  return Object.freeze({ n: family.n, quorums: Object.freeze(quorums) });
}
