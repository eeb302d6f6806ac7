/**
 * Finite-projective-plane coterie — Maekawa's √N algorithm (Maekawa 1985, as used by the
 * global-CS paper's mutex [14] and group-mutex paper Sec. 4.1): the lines of PG(2, q) as quorums.
 *
 * Construction (Singer cycle): GF(q³) is a 3-dimensional vector space over GF(q); with a primitive
 * element g, point `i ∈ Z_n` (n = q² + q + 1) is the 1-dimensional subspace spanned by gⁱ, and
 * multiplication by g permutes points cyclically and maps lines to lines. The points of the line
 * V = {a₀ + a₁x} form a perfect difference set D (|D| = q + 1), and the n lines are the translates
 * D + j. Process i uses the translate that contains it, `Q_i = D − d₀ + i` (d₀ ∈ D), so every
 * process owns exactly one line and lies on q + 1 lines: |Q_i| = |R_i| = q + 1, and two distinct
 * quorums meet in exactly one process.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { buildCoterie, type Coterie } from './coterie.js';
import { type FiniteField, finiteField, primeFactors, primePower } from './finite-field.js';
import { nearest } from './format.js';

/** Largest order accepted by {@link projectivePlane} (n = 65,793 processes). */
export const MAX_PROJECTIVE_PLANE_ORDER = 255;

type Cubic = readonly [number, number, number]; // x³ + c2·x² + c1·x + c0 → [c0, c1, c2]
type El = [number, number, number]; // a0 + a1·x + a2·x²

function findIrreducibleCubic(F: FiniteField): Cubic {
  const { q } = F;
  for (let c2 = 0; c2 < q; c2++) {
    for (let c1 = 0; c1 < q; c1++) {
      for (let c0 = 1; c0 < q; c0++) {
        let root = false;
        for (let x = 0; x < q && !root; x++) {
          const x2 = F.mul(x, x);
          const v = F.add(F.add(F.mul(x2, x), F.mul(c2, x2)), F.add(F.mul(c1, x), c0));
          root = v === 0;
        }
        if (!root) return [c0, c1, c2];
      }
    }
  }
  throw new Error('unreachable: every finite field has an irreducible cubic');
}

function mulEl(F: FiniteField, f: Cubic, u: El, v: El): El {
  // schoolbook product of degree ≤ 4, then reduce x⁴ and x³ with x³ = −(c2x² + c1x + c0)
  const r = [0, 0, 0, 0, 0];
  for (let s = 0; s < 3; s++) for (let t = 0; t < 3; t++) r[s + t] = F.add(r[s + t]!, F.mul(u[s]!, v[t]!));
  for (let d = 4; d >= 3; d--) {
    const c = r[d]!;
    if (c === 0) continue;
    r[d] = 0;
    const nc = F.neg(c);
    r[d - 3] = F.add(r[d - 3]!, F.mul(nc, f[0]));
    r[d - 2] = F.add(r[d - 2]!, F.mul(nc, f[1]));
    r[d - 1] = F.add(r[d - 1]!, F.mul(nc, f[2]));
  }
  return [r[0]!, r[1]!, r[2]!];
}

function powEl(F: FiniteField, f: Cubic, g: El, e: number): El {
  let result: El = [1, 0, 0];
  let base = g;
  let x = e;
  while (x > 0) {
    if (x % 2 === 1) result = mulEl(F, f, result, base);
    base = mulEl(F, f, base, base);
    x = Math.floor(x / 2);
  }
  return result;
}

/**
 * A perfect (q² + q + 1, q + 1, 1) difference set from the Singer cycle of PG(2, q), sorted.
 * @internal exported for tests
 */
function singerDifferenceSet(q: number): number[] {
  const F = finiteField(q);
  const f = findIrreducibleCubic(F);
  const order = q * q * q - 1;
  const factors = primeFactors(order);
  const isOne = (x: El) => x[0] === 1 && x[1] === 0 && x[2] === 0;
  let g: El | undefined;
  for (let code = q; code < q * q * q && g === undefined; code++) {
    const cand: El = [code % q, Math.floor(code / q) % q, Math.floor(code / (q * q))];
    if (factors.every((r) => !isOne(powEl(F, f, cand, order / r)))) g = cand;
  }
  if (g === undefined) throw new Error('unreachable: GF(q³)* is cyclic');
  const n = q * q + q + 1;
  const D: number[] = [];
  let cur: El = [1, 0, 0];
  for (let i = 0; i < n; i++) {
    if (cur[2] === 0) D.push(i);
    cur = mulEl(F, f, cur, g);
  }
  return D;
}

const PRIME_POWERS: number[] = [];
for (let x = 2; x <= MAX_PROJECTIVE_PLANE_ORDER; x++) if (primePower(x) !== undefined) PRIME_POWERS.push(x);

/**
 * Maekawa's finite-projective-plane coterie of order q: n = q² + q + 1 processes, n quorums (the
 * lines of PG(2, q)), |Q| = q + 1, every two quorums meet in exactly one process, every process
 * lies in q + 1 quorums and owns one (`i ∈ Q_i`). Works for every prime power q ≤ 255
 * (fields GF(p^e) are built with a searched irreducible polynomial).
 *
 * @param q the order of the plane: a prime or prime power, 2 ≤ q ≤ 255.
 * @throws ConfigurationError if q is not a prime power in range; the message names the nearest orders.
 */
export function projectivePlane(q: number): Coterie {
  if (!Number.isSafeInteger(q) || q < 2 || q > MAX_PROJECTIVE_PLANE_ORDER || primePower(q) === undefined) {
    const near = Number.isFinite(q) ? nearest(PRIME_POWERS, q) : [2, 3];
    throw new ConfigurationError(
      `projectivePlane(q): q = ${String(q)} is not a prime power in 2..${MAX_PROJECTIVE_PLANE_ORDER}; ` +
        `projective planes are built for q = 2, 3, 4, 5, 7, 8, 9, 11, 13, … (nearest: ${near.join(' or ')}, ` +
        `n = ${near.map((x) => x * x + x + 1).join(' or ')})`,
    );
  }
  const n = q * q + q + 1;
  const D = singerDifferenceSet(q);
  const d0 = D[0]!;
  const assignment: ProcessId[][] = [];
  for (let i = 0; i < n; i++) {
    assignment.push(D.map((d) => (((d - d0 + i) % n) + n) % n).sort((a, b) => a - b));
  }
  return buildCoterie(n, 'projective-plane', `projective plane q=${q}`, assignment);
}
