/**
 * Finite fields GF(q), q = p^e, as addition and multiplication tables over the elements
 * `0..q-1` (base-p digit vectors of polynomial coefficients, reduced modulo a monic irreducible
 * polynomial of degree e found by search). Used by the projective-plane coterie. Internal.
 */

/** Smallest prime factor of x ≥ 2. */
function smallestFactor(x: number): number {
  if (x % 2 === 0) return 2;
  for (let d = 3; d * d <= x; d += 2) if (x % d === 0) return d;
  return x;
}

/** `{ p, e }` with `q = p^e`, or `undefined` when q is not a prime power. */
export function primePower(q: number): { p: number; e: number } | undefined {
  if (!Number.isSafeInteger(q) || q < 2) return undefined;
  const p = smallestFactor(q);
  let e = 0;
  let r = q;
  while (r % p === 0) {
    r /= p;
    e++;
  }
  return r === 1 ? { p, e } : undefined;
}

/** Distinct prime factors of x ≥ 1. */
export function primeFactors(x: number): number[] {
  const out: number[] = [];
  let r = x;
  for (let d = 2; d * d <= r; d++) {
    if (r % d === 0) {
      out.push(d);
      while (r % d === 0) r /= d;
    }
  }
  if (r > 1) out.push(r);
  return out;
}

/** Polynomials over GF(p) as coefficient arrays, lowest degree first. */
function polyMod(a: number[], f: number[], p: number): number[] {
  const r = a.slice();
  const df = f.length - 1;
  for (let d = r.length - 1; d >= df; d--) {
    const c = r[d]!;
    if (c === 0) continue;
    // f is monic
    for (let t = 0; t <= df; t++) r[d - df + t] = (((r[d - df + t]! - c * f[t]!) % p) + p) % p;
  }
  return r.slice(0, df);
}

function isIrreducible(f: number[], p: number): boolean {
  const e = f.length - 1;
  // no monic factor of degree 1..floor(e/2)
  for (let d = 1; d <= Math.floor(e / 2); d++) {
    const count = p ** d;
    for (let code = 0; code < count; code++) {
      const g: number[] = [];
      let x = code;
      for (let t = 0; t < d; t++) {
        g.push(x % p);
        x = Math.floor(x / p);
      }
      g.push(1);
      const rem = polyMod(f, g, p);
      if (rem.every((c) => c === 0)) return false;
    }
  }
  return true;
}

/** GF(q) with operation tables. */
export interface FiniteField {
  readonly q: number;
  readonly p: number;
  readonly e: number;
  add(a: number, b: number): number;
  mul(a: number, b: number): number;
  neg(a: number): number;
}

/** Builds GF(q) for a prime power q. Caller checks q first with {@link primePower}. */
export function finiteField(q: number): FiniteField {
  const pp = primePower(q);
  if (pp === undefined) throw new RangeError(`${q} is not a prime power`);
  const { p, e } = pp;
  const digits = (a: number): number[] => {
    const d: number[] = [];
    for (let t = 0; t < e; t++) {
      d.push(a % p);
      a = Math.floor(a / p);
    }
    return d;
  };
  const value = (d: readonly number[]): number => {
    let v = 0;
    for (let t = d.length - 1; t >= 0; t--) v = v * p + d[t]!;
    return v;
  };
  let f: number[] = [0, 1];
  if (e > 1) {
    for (let code = 0; ; code++) {
      const cand: number[] = [];
      let x = code;
      for (let t = 0; t < e; t++) {
        cand.push(x % p);
        x = Math.floor(x / p);
      }
      cand.push(1);
      if (cand[0] !== 0 && isIrreducible(cand, p)) {
        f = cand;
        break;
      }
    }
  }
  const addT = new Uint16Array(q * q);
  const mulT = new Uint16Array(q * q);
  const dig = Array.from({ length: q }, (_, a) => digits(a));
  for (let a = 0; a < q; a++) {
    for (let b = 0; b < q; b++) {
      const da = dig[a]!;
      const db = dig[b]!;
      addT[a * q + b] = value(da.map((x, t) => (x + db[t]!) % p));
      if (e === 1) {
        mulT[a * q + b] = (a * b) % p;
      } else {
        const prod = new Array<number>(2 * e - 1).fill(0);
        for (let s = 0; s < e; s++)
          for (let t = 0; t < e; t++) prod[s + t] = (prod[s + t]! + da[s]! * db[t]!) % p;
        mulT[a * q + b] = value(polyMod(prod, f, p));
      }
    }
  }
  const negT = new Uint16Array(q);
  for (let a = 0; a < q; a++) for (let b = 0; b < q; b++) if (addT[a * q + b] === 0) negT[a] = b;
  return {
    q,
    p,
    e,
    add: (a, b) => addT[a * q + b]!,
    mul: (a, b) => mulT[a * q + b]!,
    neg: (a) => negT[a]!,
  };
}
