/**
 * The search behind the k- and (h,k)-arbiter checks (h-out-of-k paper, Defs. 3–5, Theorems 1–2):
 * for one critical conflicting request pattern, is there a quorum assignment (one quorum of
 * Q_{h,k} per request) whose quorums share no process? Counting proof, then exhaustive search
 * within a budget, then seeded sampling (see `check-arbiter.ts` for the method in full).
 */
import { intersectionSize, isEmpty, popcount } from './bitset.js';
import type { Prepared } from './prepared.js';
import { seededRandom } from './random.js';

/** Search nodes per pattern, random assignments past the budget, and the sampler's seed. */
export interface SearchLimits {
  readonly budget: number;
  readonly samples: number;
  readonly seed: number;
}

/** The quorums of one unit count h (`owner` names them in messages). */
export interface Family {
  readonly h: number;
  readonly owner: object;
  readonly p: Prepared;
}

/** What the search settled for one pattern. */
export type Outcome =
  | { kind: 'safe'; how: 'counting' | 'search' }
  | { kind: 'violation'; picks: [Family, number][] }
  | { kind: 'unknown' };

/** Slots: one per request, larger h first; with c requests of h and |Q_h| < c, extra requests add nothing. */
function patternSlots(pattern: readonly number[], familyOf: (h: number) => Family): Family[] {
  const counts = new Map<number, number>();
  for (const h of pattern) counts.set(h, (counts.get(h) ?? 0) + 1);
  const slots: Family[] = [];
  for (const [h, c] of [...counts].sort((x, y) => y[0] - x[0])) {
    const f = familyOf(h);
    for (let t = 0; t < Math.min(c, f.p.quorums.length); t++) slots.push(f);
  }
  return slots;
}

/**
 * Past the search budget: `opts.samples` random picks (seeded); true (with the picks left in
 * `pick`) when one empties the intersection of the picked quorums.
 */
function sampleViolation(
  slots: readonly Family[],
  all: Uint32Array,
  pick: Int32Array,
  opts: SearchLimits,
): boolean {
  const words = all.length;
  const rnd = seededRandom(opts.seed);
  const I = new Uint32Array(words);
  for (let t = 0; t < opts.samples; t++) {
    I.set(all);
    for (let s = 0; s < slots.length; s++) {
      const f = slots[s]!;
      pick[s] = rnd.int(0, f.p.quorums.length - 1);
      const b = f.p.bits[pick[s]!]!;
      for (let w = 0; w < words; w++) I[w]! &= b[w]!;
    }
    if (isEmpty(I)) return true;
  }
  return false;
}

/** Settles one critical conflicting pattern: safe (how), a violating assignment, or unknown. */
export function solvePattern(
  n: number,
  pattern: readonly number[],
  familyOf: (h: number) => Family,
  opts: SearchLimits,
): Outcome {
  const slots = patternSlots(pattern, familyOf);
  let missing = 0;
  for (const f of slots) missing += n - f.p.minSize;
  if (missing < n) return { kind: 'safe', how: 'counting' };

  const words = slots[0]!.p.bits[0]!.length;
  const all = new Uint32Array(words);
  for (let p = 0; p < n; p++) all[p >>> 5]! |= 1 << (p & 31);
  const stack = slots.map(() => new Uint32Array(words));
  const pick = new Int32Array(slots.length);
  // suffix sums of the cheap bound: Σ_{t ≥ s} (n − minSize_t)
  const cheap = new Float64Array(slots.length + 1);
  for (let s = slots.length - 1; s >= 0; s--) cheap[s] = cheap[s + 1]! + (n - slots[s]!.p.minSize);
  let nodes = 0;

  // sameAfter[s]: how many following slots share slot s's family (they need larger indices).
  const sameAfter = new Int32Array(slots.length);
  for (let s = slots.length - 2; s >= 0; s--)
    if (slots[s + 1] === slots[s]) sameAfter[s] = sameAfter[s + 1]! + 1;
  const fill = (from: number) => {
    for (let s = from; s < slots.length; s++)
      pick[s] = s > 0 && slots[s - 1] === slots[s] ? pick[s - 1]! + 1 : 0;
  };
  const canEmpty = (I: Uint32Array, from: number): boolean => {
    const size = popcount(I);
    if (cheap[from]! < size) return false;
    let removable = 0;
    for (let s = from; s < slots.length; s++) {
      let best = 0;
      for (const b of slots[s]!.p.bits) best = Math.max(best, size - intersectionSize(I, b));
      removable += best;
      if (removable >= size) return true;
    }
    return false;
  };
  const dfs = (s: number, I: Uint32Array): boolean => {
    if (++nodes > opts.budget) return false;
    const f = slots[s]!;
    const start = s > 0 && slots[s - 1] === f ? pick[s - 1]! + 1 : 0;
    const end = f.p.quorums.length - sameAfter[s]!;
    const out = stack[s]!;
    for (let j = start; j < end; j++) {
      const b = f.p.bits[j]!;
      for (let w = 0; w < words; w++) out[w] = I[w]! & b[w]!;
      pick[s] = j;
      if (isEmpty(out)) {
        fill(s + 1);
        return true;
      }
      if (s + 1 < slots.length && canEmpty(out, s + 1) && dfs(s + 1, out)) return true;
      if (nodes > opts.budget) return false;
    }
    return false;
  };
  const found = dfs(0, all);
  const picksOf = (): [Family, number][] => slots.map((f, s) => [f, pick[s]!]);
  if (found) return { kind: 'violation', picks: picksOf() };
  if (nodes <= opts.budget) return { kind: 'safe', how: 'search' };

  if (sampleViolation(slots, all, pick, opts)) return { kind: 'violation', picks: picksOf() };
  return { kind: 'unknown' };
}
