/**
 * Grid coterie — global-CS paper, Example 2 (Maekawa [14]); the square grid coterie of the
 * h-out-of-k paper, Sec. 2.3. With an extension to any n.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { isValidN } from '@critsec/core/kit';
import { buildCoterie, type Coterie } from './coterie.js';
import { checkConstructionSize } from './size-limit.js';

/** Shape of the grid {@link grid} lays `n` processes on. */
export interface GridShape {
  /** Number of columns, `⌈√n⌉`. */
  readonly columns: number;
  /** Number of rows, `⌈n / columns⌉`. */
  readonly rows: number;
  /** Length of the last row (`columns` when the grid is full). */
  readonly lastRow: number;
}

/**
 * The layout of {@link grid}: `columns = ⌈√n⌉`, `rows = ⌈n/columns⌉`, row-major, last row partial.
 * @throws ConfigurationError if `n` is not an integer ≥ 1.
 */
export function gridShape(n: number): GridShape {
  if (!isValidN(n)) throw new ConfigurationError(`grid(n): n must be an integer ≥ 1, got ${String(n)}`);
  let columns = Math.floor(Math.sqrt(n));
  while (columns * columns < n) columns++;
  while ((columns - 1) * (columns - 1) >= n) columns--;
  const rows = Math.ceil(n / columns);
  return { columns, rows, lastRow: n - columns * (rows - 1) };
}

/**
 * The grid coterie.
 *
 * - **n = s²** (global-CS paper, Example 2): process `P_{x + y·s}` sits at column `x`, row `y`;
 *   `Q_{x,y}` = row `y` ∪ column `x`, `|Q| = 2√n − 1`; `P_{x+y·s}` uses `Q_{x,y}`.
 * - **any other n** (documented extension): `c = ⌈√n⌉` columns, `r = ⌈n/c⌉` rows, processes laid out
 *   row-major so only the last row is partial; `Q_p` = all existing cells of `p`'s row and column.
 *   Intersection still holds: two quorums in the same row share it; otherwise at least one of the
 *   two rows, say row y', is full, and the cell (y', x) of the other quorum's column x lies in both.
 *   When the last row holds a single process its quorum is column 0 alone, which lies inside the
 *   quorums of the other column-0 processes; those processes are given column 0 instead, so the
 *   result stays minimal. Sizes: `|Q| ≤ c + r − 1 ≤ 2⌈√n⌉ − 1`.
 *
 * @param n number of processes, ≥ 1.
 * @throws ConfigurationError if `n` is not an integer ≥ 1, or beyond the size one construction may
 *   hold (n · (c + r − 1) memberships, n quorums of n bits: `MAX_QUORUM_MEMBERSHIPS` or `MAX_QUORUM_SET_BITS`; n ≤ 65,536).
 */
export function grid(n: number): Coterie {
  const { columns: c, rows: r } = gridShape(n);
  checkConstructionSize('grid(n)', n, { memberships: n * (c + r - 1), quorums: n });
  const rowOf: ProcessId[][] = Array.from({ length: r }, () => []);
  const colOf: ProcessId[][] = Array.from({ length: c }, () => []);
  for (let p = 0; p < n; p++) {
    rowOf[Math.floor(p / c)]!.push(p);
    colOf[p % c]!.push(p);
  }
  const assignment: ProcessId[][] = [];
  for (let p = 0; p < n; p++) {
    const set = new Set<ProcessId>([...rowOf[Math.floor(p / c)]!, ...colOf[p % c]!]);
    assignment.push([...set].sort((a, b) => a - b));
  }
  const square = c * c === n;
  return buildCoterie(
    n,
    'grid',
    square ? `grid ${c}×${c}` : `grid ${c} columns × ${r} rows (last row ${n - c * (r - 1)})`,
    assignment,
    {
      minimize: !square,
    },
  );
}
