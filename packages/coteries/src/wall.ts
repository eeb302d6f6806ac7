/**
 * Crumbling walls — Peleg & Wool, "Crumbling walls: a class of practical and efficient quorum
 * systems", Distributed Computing 10(2), 1997. Processes are arranged in rows (top to bottom) of
 * widths n_1, …, n_d; a quorum is one full row plus one representative of every row below it.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { buildCoterie, type Coterie } from './coterie.js';
import { checkConstructionSize } from './size-limit.js';

/**
 * The crumbling wall with row widths `widths` (top row first), processes numbered row by row.
 *
 * `Q_p` for process `p` in row `i`: all of row `i` plus, from every row `j > i`, the member at
 * position `p mod n_j` (spreading the representatives). |Q_p| = n_i + (d − 1 − i) (rows 0-based).
 * Two quorums with full rows i < j meet in the representative of row j; quorums of the same row
 * share it. Minimality needs every row below the top to have at least 2 processes (otherwise a
 * one-process row inside another quorum could be a proper subset), so widths must satisfy
 * `n_1 ≥ 1` and `n_j ≥ 2` for j > 1. With `n_1 = 1` the full crumbling wall is non-dominated
 * (Peleg & Wool); the per-process assignment uses only some of its quorums.
 *
 * @param widths row widths, top first.
 * @throws ConfigurationError if `widths` is empty, has a non-integer or a width < 1, or a width < 2
 *   below the top row, or beyond the size one construction may hold (Σ_i n_i·(n_i + d − 1 − i)
 *   memberships, n quorums of n bits: `MAX_QUORUM_MEMBERSHIPS` or `MAX_QUORUM_SET_BITS`).
 */
export function wall(widths: readonly number[]): Coterie {
  if (!Array.isArray(widths) || widths.length === 0) {
    throw new ConfigurationError('wall(widths): give at least one row width, e.g. wall([1, 2, 3])');
  }
  widths.forEach((w, i) => {
    if (!Number.isSafeInteger(w) || w < (i === 0 ? 1 : 2)) {
      throw new ConfigurationError(
        `wall(widths): row ${i} has width ${String(w)}; the top row needs ≥ 1 process and every other row ≥ 2 (for minimality)`,
      );
    }
  });
  const d = widths.length;
  const memberships = widths.reduce((sum, w, i) => sum + w * (w + d - 1 - i), 0);
  const n0 = widths.reduce((sum, w) => sum + w, 0);
  checkConstructionSize(`wall(widths)`, n0, { memberships, quorums: n0 });
  const rows: ProcessId[][] = [];
  let next = 0;
  for (const w of widths) {
    rows.push(Array.from({ length: w }, (_, t) => next + t));
    next += w;
  }
  const n = next;
  const assignment: ProcessId[][] = [];
  rows.forEach((row, i) => {
    for (const p of row) {
      const q = [...row];
      for (let j = i + 1; j < rows.length; j++) q.push(rows[j]![p % rows[j]!.length]!);
      assignment.push(q);
    }
  });
  return buildCoterie(n, 'wall', `wall [${widths.join(', ')}]`, assignment);
}

/**
 * The triangle crumbling wall (Peleg & Wool): rows of widths 1, 2, …, d; n = d(d+1)/2.
 * @throws ConfigurationError if `d` is not an integer ≥ 1.
 */
export function triangle(d: number): Coterie {
  if (!Number.isSafeInteger(d) || d < 1) {
    throw new ConfigurationError(`triangle(d): d must be an integer ≥ 1 (n = d(d+1)/2), got ${String(d)}`);
  }
  return wall(Array.from({ length: d }, (_, i) => i + 1));
}

/**
 * The wheel (Peleg & Wool): a hub (process 0) on the top row and n − 1 spokes below; the hub's
 * quorum is {hub, one spoke}, a spoke's quorum is all spokes.
 * @throws ConfigurationError if `n < 3`.
 */
export function wheel(n: number): Coterie {
  if (!Number.isSafeInteger(n) || n < 3) {
    throw new ConfigurationError(
      `wheel(n): n must be an integer ≥ 3 (a hub and at least 2 spokes), got ${String(n)}`,
    );
  }
  return wall([1, n - 1]);
}
