/*
 * The closed forms of the (h,k)-arbiters of the h-out-of-k paper (Sec. 3.2 uniform, Sec. 3.3
 * (k+1)-cube): quorum sizes and cube sides, and from them the size check every arbiter
 * constructor makes before building (size-limit.ts).
 */
import { type ConstructionSize, checkConstructionSize, MAX_QUORUM_MEMBERSHIPS } from './size-limit.js';

/** `⌊k·n/(k+h)⌋ + 1`, the quorum size of `Q_{h,k}` in the uniform (h,k)-arbiter (Sec. 3.2). */
export function uniformQuorumSize(n: number, k: number, h: number): number {
  return Math.floor((k * n) / (k + h)) + 1;
}

/** `z_h = ⌊(1+k)/(1+k/h)⌋ = ⌊(1+k)·h/(h+k)⌋` of the (k+1)-cube (h,k)-arbiter (Sec. 3.3). */
export function cubeZ(k: number, h: number): number {
  return Math.floor(((1 + k) * h) / (h + k));
}

/** Side `a` of the (k+1)-cube for n processes: the least a with a^(k+1) ≥ n. */
export function cubeSide(n: number, k: number): number {
  let a = 1;
  while (a ** (k + 1) < n) a++;
  return a;
}

/**
 * What the quorum sets `Q_{h,k}` for h = 1 … `hMax` build, from the closed forms (uniform: n windows of
 * `uniformQuorumSize`; cube: a^(k+1) tuple quorums, each the union of k + 2 − z hyperplane strips
 * of a^(k+1−z) tuples, at most n processes), checked against the limits of size-limit.ts.
 */
export function checkArbiterSize(who: string, n: number, k: number, hMax: number, cube: boolean): void {
  const size = { memberships: 0, quorums: 0 };
  const add = (s: ConstructionSize) => {
    size.memberships += s.memberships;
    size.quorums += s.quorums;
  };
  // stops as soon as the sum is past a limit (k may be huge)
  for (let h = 1; h <= hMax && size.memberships <= MAX_QUORUM_MEMBERSHIPS; h++) {
    if (!cube) add({ memberships: n * uniformQuorumSize(n, k, h), quorums: n });
    else {
      const a = cubeSide(n, k);
      const z = cubeZ(k, h);
      const tuples = a ** (k + 1);
      add({ memberships: tuples * Math.min(n, (k + 2 - z) * a ** (k + 1 - z)), quorums: tuples });
    }
  }
  checkConstructionSize(who, n, size);
}
