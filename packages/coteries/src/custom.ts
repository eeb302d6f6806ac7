/**
 * User-defined coteries: from a per-process assignment or from JSON (global-CS paper, Def. 3).
 */
import { CoterieError, type ProcessId } from '@critsec/core';
import { buildCoterie, type Coterie } from './coterie.js';

/**
 * A coterie from a per-process assignment: `assignment[i]` is `Q_i`, the quorum process `i` uses.
 * Quorums may be given in any order (they are sorted); processes sharing a quorum may repeat it.
 * Validated in full: nonemptiness, ids in `0..n-1`, no repeated members, pairwise intersection,
 * minimality.
 *
 * @example
 * ```ts
 * const c = fromQuorums(3, [[0, 1], [1, 2], [0, 2]]);
 * c.reportersOf(0); // [0, 2]
 * ```
 * @throws ConfigurationError if `n` is not an integer ≥ 1.
 * @throws CoterieError if the assignment does not have `n` entries or is not a coterie; the message
 *   names the offending quorum or pair, e.g. `Q_3 = {1, 4} and Q_7 = {2, 5} do not intersect`.
 */
export function fromQuorums(
  n: number,
  assignment: readonly (readonly ProcessId[])[],
  kind = 'custom',
): Coterie {
  return buildCoterie(n, kind, `${kind} n=${n}`, assignment);
}

/**
 * Reads a coterie written by {@link Coterie.toJSON} (`{ n, kind, assignment }`, e.g. from a file
 * a user brings) and validates it like {@link fromQuorums}. `kind` is optional (default `'custom'`).
 *
 * @throws CoterieError if the value does not have that shape or is not a coterie; the message says
 *   what was wrong and what is expected.
 */
export function coterieFromJSON(json: unknown): Coterie {
  const expected =
    'expected { "n": <integer ≥ 1>, "kind"?: <string>, "assignment": [[<process ids of Q_0>], …, [<Q_{n-1}>]] }';
  if (typeof json === 'string') {
    try {
      json = JSON.parse(json) as unknown;
    } catch (err) {
      throw new CoterieError(`coterie JSON does not parse: ${(err as Error).message}; ${expected}`, {
        cause: err,
      });
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new CoterieError(
      `coterie JSON must be an object, got ${json === null ? 'null' : Array.isArray(json) ? 'an array' : typeof json}; ${expected}`,
    );
  }
  const o = json as Record<string, unknown>;
  if (typeof o.n !== 'number' || !Number.isSafeInteger(o.n) || o.n < 1) {
    throw new CoterieError(
      `coterie JSON: "n" must be an integer ≥ 1, got ${JSON.stringify(o.n)}; ${expected}`,
    );
  }
  if (o.kind !== undefined && typeof o.kind !== 'string') {
    throw new CoterieError(
      `coterie JSON: "kind" must be a string, got ${JSON.stringify(o.kind)}; ${expected}`,
    );
  }
  if (!Array.isArray(o.assignment)) {
    throw new CoterieError(
      `coterie JSON: "assignment" must be an array of n = ${o.n} quorums, got ${JSON.stringify(o.assignment)}; ${expected}`,
    );
  }
  const kind = (o.kind as string | undefined) ?? 'custom';
  return buildCoterie(o.n, kind, `${kind} n=${o.n}`, o.assignment as unknown[][]);
}
