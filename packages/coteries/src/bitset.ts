/**
 * Fixed-width bitsets over `Uint32Array` words: the representation every validator and metric
 * works on (one bit per process, or one bit per quorum). Internal to the package.
 */

/** Number of 32-bit words for `bits` bits. */
export function wordsFor(bits: number): number {
  return (bits + 31) >>> 5;
}

/** A bitset of `bits` bits with the listed positions set. */
export function bitsetOf(members: readonly number[], bits: number): Uint32Array {
  const b = new Uint32Array(wordsFor(bits));
  for (const p of members) b[p >>> 5]! |= 1 << (p & 31);
  return b;
}

export function hasBit(b: Uint32Array, p: number): boolean {
  return (b[p >>> 5]! & (1 << (p & 31))) !== 0;
}

/** `a ∩ b ≠ ∅`, stopping at the first common word. */
export function intersects(a: Uint32Array, b: Uint32Array): boolean {
  for (let w = 0; w < a.length; w++) if ((a[w]! & b[w]!) !== 0) return true;
  return false;
}

/** `a ⊆ b`, stopping at the first word with an element of `a` outside `b`. */
export function isSubset(a: Uint32Array, b: Uint32Array): boolean {
  for (let w = 0; w < a.length; w++) if ((a[w]! & ~b[w]!) !== 0) return false;
  return true;
}

/** Population count of one 32-bit word. */
function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function popcount(b: Uint32Array): number {
  let c = 0;
  for (let w = 0; w < b.length; w++) c += popcount32(b[w]!);
  return c;
}

export function isEmpty(b: Uint32Array): boolean {
  for (let w = 0; w < b.length; w++) if (b[w] !== 0) return false;
  return true;
}

/** `|a ∩ b|`. */
export function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  let c = 0;
  for (let w = 0; w < a.length; w++) c += popcount32(a[w]! & b[w]!);
  return c;
}

/** Lowest set bit at position ≥ `from`, or -1. */
export function nextSetBit(b: Uint32Array, from: number): number {
  let w = from >>> 5;
  if (w >= b.length) return -1;
  let x = b[w]! & (~0 << (from & 31));
  for (;;) {
    if (x !== 0) return (w << 5) + (31 - Math.clz32(x & -x));
    w++;
    if (w >= b.length) return -1;
    x = b[w]!;
  }
}

/** Lowest clear bit at position in `[from, bits)`, or -1. */
export function nextClearBit(b: Uint32Array, from: number, bits: number): number {
  for (let p = from; p < bits; ) {
    const w = p >>> 5;
    const x = ~b[w]! & (~0 << (p & 31));
    if (x !== 0) {
      const q = (w << 5) + (31 - Math.clz32(x & -x));
      return q < bits ? q : -1;
    }
    p = (w + 1) << 5;
  }
  return -1;
}
