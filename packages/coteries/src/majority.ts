/**
 * Majority coterie — global-CS paper, Example 1 (after Garcia-Molina & Barbara [8]); for odd n
 * also the uniform 1-arbiter of the h-out-of-k paper, Sec. 2.3.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { isValidN } from '@critsec/core/kit';
import { buildCoterie, type Coterie } from './coterie.js';
import { checkConstructionSize } from './size-limit.js';

function window(n: number, start: number, size: number): ProcessId[] {
  const q: ProcessId[] = [];
  for (let t = 0; t < size; t++) q.push((start + t) % n);
  return q.sort((a, b) => a - b);
}

/**
 * The majority coterie of global-CS paper Example 1 with a cyclic per-process assignment.
 *
 * - **n odd**: `|Q_i| = (n+1)/2`, `Q_i = {i, i+1, …, i+(n-1)/2} mod n`.
 * - **n even**: `C_maj = C₁ ∪ C₂` with `|Q| = n/2` in C₁ and `|Q| = n/2 + 1` in C₂, and no C₁ quorum
 *   inside a C₂ quorum. Here C₁ quorums all contain the distinguished process `P_0` (so they meet
 *   each other) and C₂ quorums never do (so minimality holds); C₁–C₂ pairs meet because
 *   `n/2 + (n/2+1) > n`. Assignment: `Q_i` is the cyclic window of `n/2` processes starting at `i`
 *   when it contains `P_0` (`i = 0` or `i > n/2`), the window of `n/2 + 1` starting at `i` for
 *   `0 < i < n/2`, and `{P_0} ∪ {n/2, …, n-2}` for `i = n/2`. Every `Q_i` contains `i` (n ≥ 3).
 *
 * `quorums` are the `n` assigned quorums (the full family of all majorities is huge), so the
 * metrics of `metrics.ts` on this coterie (`faultTolerance`, `optimalLoad`, `availability`) are
 * those of the cyclic windows — e.g. n = 15: fault tolerance 2, availability 0.8516 at crash
 * probability 0.1. The majority coterie of the literature (every majority a quorum; for even n
 * the `C₁ ∪ C₂` rule with `P_0` breaking ties) is `family` = `{ kind: 'majority', n }`:
 * `familyMetrics(c, p)` gives its figures by closed forms (n = 15: fault tolerance 8, load 8/15,
 * availability 0.99997 at 0.1), `coterieMetrics(c, p)` both side by side.
 *
 * @param n number of processes, ≥ 1.
 * @throws ConfigurationError if `n` is not an integer ≥ 1, or beyond the size one construction may
 *   hold (n · (⌊n/2⌋ + 1) memberships ≤ `MAX_QUORUM_MEMBERSHIPS` = 2^25: n ≤ 8191).
 */
export function majority(n: number): Coterie {
  if (!isValidN(n)) throw new ConfigurationError(`majority(n): n must be an integer ≥ 1, got ${String(n)}`);
  checkConstructionSize('majority(n)', n, { memberships: n * (Math.floor(n / 2) + 1), quorums: n });
  const assignment: ProcessId[][] = [];
  if (n % 2 === 1) {
    const s = (n + 1) / 2;
    for (let i = 0; i < n; i++) assignment.push(window(n, i, s));
  } else {
    const h = n / 2;
    for (let i = 0; i < n; i++) {
      if (i === 0 || i > h) assignment.push(window(n, i, h));
      else if (i < h) assignment.push(window(n, i, h + 1));
      else {
        const q = [0];
        for (let p = h; p <= n - 2; p++) q.push(p);
        assignment.push(q);
      }
    }
  }
  return buildCoterie(n, 'majority', `majority n=${n}`, assignment, {
    extra: { family: Object.freeze({ kind: 'majority', n }) },
  });
}
