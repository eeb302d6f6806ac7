/**
 * The project's one pseudo-random generator: small, fast and seeded (sfc32, seeded through
 * splitmix32). The simulator draws every delay, fault and workload choice from it (re-exported
 * by `@critsec/transport-sim`), so the same seed gives the same execution; random graphs
 * (`@critsec/local-cs`) and the tests' reproducible chaos draw from it too. Here, in the
 * zero-dependency core, so that every package below the simulator can use the same generator.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, bound). */
  int(bound: number): number;
  /** An element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** An independent generator derived from this one's seed and a label (stable across runs). */
  fork(label: string | number): Rng;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

function hashLabel(seed: number, label: string | number): number {
  const s = `${seed}:${label}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * A seeded generator. `seed` is any safe integer (negative and large values are folded to 32 bits
 * together with their high bits, so seeds 1 and 2**32+1 differ).
 */
export function createRng(seed: number): Rng {
  const folded = (seed >>> 0) ^ Math.floor(seed / 2 ** 32);
  const sm = splitmix32(folded);
  let a = sm();
  let b = sm();
  let c = sm();
  let d = sm();
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    next,
    int: (bound) => Math.floor(next() * bound),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    fork: (label) => createRng(hashLabel(folded, label)),
  };
}
