/*
 * Coteries by construction name (`coterie: 'grid'` of an algorithm descriptor's parameters, the
 * `--coterie` flag), with the size rules of each construction checked up front so that a wrong
 * size is a one-line usage error naming the sizes that work, and its memory (n · |Q|max
 * memberships) weighed before anything is built — here, once, for every descriptor that builds a
 * coterie (mutex, mutin, gcs, group-mutex).
 */
import { ConfigurationError, type MemoryEstimate } from '@critsec/core';
import type { Coterie } from './coterie.js';
import { grid, gridShape } from './grid.js';
import { majority } from './majority.js';
import { MAX_PROJECTIVE_PLANE_ORDER, projectivePlane } from './projective-plane.js';
import { tree } from './tree.js';
import { wall } from './wall.js';

/** The coterie constructions the CLI offers. */
export const COTERIE_NAMES = ['majority', 'grid', 'projective-plane', 'tree', 'wall'] as const;

/** A coterie construction the CLI offers. */
export type CoterieName = (typeof COTERIE_NAMES)[number];

function isPrimePower(q: number): boolean {
  if (!Number.isSafeInteger(q) || q < 2) return false;
  let p = 2;
  while (p * p <= q && q % p !== 0) p++;
  if (q % p !== 0) return true; // q is prime
  let x = q;
  while (x % p === 0) x /= p;
  return x === 1;
}

/** Orders q (prime powers, 2 ≤ q ≤ 255) for which a projective plane is built. */
const PROJECTIVE_PLANE_ORDERS: readonly number[] = Array.from(
  { length: MAX_PROJECTIVE_PLANE_ORDER - 1 },
  (_, i) => i + 2,
).filter(isPrimePower);

/** The sizes n = q² + q + 1 of the projective-plane coterie. */
export const PROJECTIVE_PLANE_SIZES: readonly number[] = PROJECTIVE_PLANE_ORDERS.map((q) => q * q + q + 1);

function nearestOf(sizes: readonly number[], n: number): number[] {
  let below: number | undefined;
  let above: number | undefined;
  for (const s of sizes) {
    if (s <= n) below = s;
    else if (above === undefined) above = s;
  }
  return [below, above].filter((x): x is number => x !== undefined);
}

/** The largest valid size ≤ n, or the smallest above if none (for the bench's nominal sizes). */
function nearestSize(sizes: readonly number[], n: number): number {
  const [a, b] = nearestOf(sizes, n);
  if (a === undefined) return n;
  if (b === undefined) return a;
  return n - a <= b - n ? a : b;
}

/**
 * The crumbling wall the CLI builds for n processes (Peleg & Wool 1997): a top row of one
 * process, then rows of about √n processes each (widths differing by at most one, each ≥ 2),
 * so |Q| ≈ 2√n. n = 1 is one row [1]; n = 2 is one row [2].
 */
export function wallWidths(n: number): number[] {
  if (n <= 2) return [n];
  const rest = n - 1;
  const target = Math.max(2, Math.round(Math.sqrt(n)));
  const rows = Math.max(1, Math.floor(rest / target));
  const base = Math.floor(rest / rows);
  const extra = rest - base * rows;
  return [1, ...Array.from({ length: rows }, (_, i) => base + (i < extra ? 1 : 0))];
}

/**
 * An upper bound on the largest quorum |Q|max of coterie `name` over n processes, from the
 * construction's closed form (no coterie is built), exact from n = 16 on and at most one above
 * below it (minimality trims a few small cases, e.g. majority(2) = {{P0}}): majority ⌊n/2⌋ + 1, grid c + r − 1 (its {@link gridShape}),
 * wall max over rows of width + rows below, tree log₂(n + 1), projective plane q + 1.
 * For n a construction does not exist for (tree, projective plane) it is the value of the
 * formula; the construction itself rejects such n.
 */
export function maxQuorumSize(name: CoterieName, n: number): number {
  switch (name) {
    case 'majority':
      return Math.floor(n / 2) + 1;
    case 'grid': {
      const { columns, rows } = gridShape(n);
      return columns + rows - 1;
    }
    case 'wall': {
      const widths = wallWidths(n);
      return Math.max(...widths.map((w, i) => w + widths.length - 1 - i));
    }
    case 'tree':
      return Math.max(1, Math.ceil(Math.log2(n + 1)));
    case 'projective-plane':
      return Math.round((Math.sqrt(4 * n - 3) - 1) / 2) + 1;
  }
}

/**
 * The size a construction can be built for that is nearest to the nominal `n` (the bench runs
 * every coterie "at" n = 16, 64, 256, 1024): projective planes take q² + q + 1 for a prime power
 * q, trees 2^h − 1; the others any n.
 */
export function nearestCoterieSize(name: CoterieName, n: number): number {
  switch (name) {
    case 'projective-plane':
      return nearestSize(PROJECTIVE_PLANE_SIZES, n);
    case 'tree': {
      const sizes: number[] = [];
      for (let s = 1; s <= 4 * n + 4; s = 2 * s + 1) sizes.push(s);
      return nearestSize(sizes, n);
    }
    default:
      return n;
  }
}

/**
 * Builds coterie `name` over n processes, once `weigh` (a descriptor's `BuildContext.weigh`) has
 * accepted its n processes, n · {@link maxQuorumSize} quorum memberships and n quorum sets of n
 * bits.
 * @throws ConfigurationError, before anything is built, when the estimated memory exceeds the
 *   heap (naming n, the estimate and the ways out); naming the sizes that work when n does not
 *   fit the construction (projective plane: n = q² + q + 1 for a prime power q; tree: n = 2^h − 1).
 */
export function coterieByName(
  name: CoterieName,
  n: number,
  weigh: (estimate: MemoryEstimate) => void = () => {},
): Coterie {
  weigh({ n, memberships: n * maxQuorumSize(name, n), quorumSets: n, what: `the ${name} coterie` });
  switch (name) {
    case 'majority':
      return majority(n);
    case 'grid':
      return grid(n);
    case 'wall':
      return wall(wallWidths(n));
    case 'tree': {
      try {
        return tree(n);
      } catch (err) {
        throw new ConfigurationError(`--coterie tree: ${(err as Error).message.replace(/^tree\(n\): /, '')}`);
      }
    }
    case 'projective-plane': {
      const q = Math.round((Math.sqrt(4 * n - 3) - 1) / 2);
      const near = nearestOf(PROJECTIVE_PLANE_SIZES, n).join(' or ');
      if (q * q + q + 1 !== n) {
        throw new ConfigurationError(
          `--coterie projective-plane needs n = q²+q+1 for a prime power q (n = 7, 13, 21, 31, 57, 73, 91, 133, …); n = ${n} is not of that form (nearest: ${near})`,
        );
      }
      if (!isPrimePower(q) || q > MAX_PROJECTIVE_PLANE_ORDER) {
        throw new ConfigurationError(
          `--coterie projective-plane: n = ${n} = q²+q+1 with q = ${q}, which is not a prime power in 2..${MAX_PROJECTIVE_PLANE_ORDER}, so there is no projective plane of that order; accepted orders q = 2, 3, 4, 5, 7, 8, 9, 11, 13, … (nearest n: ${near})`,
        );
      }
      return projectivePlane(q);
    }
  }
}
