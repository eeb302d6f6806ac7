/**
 * `Que.prefixEnd(k)` (Fig. 1: "i := maximum integer (≤ Quelength) that satisfies
 * Σ_{j=1}^{i} Que[j].units ≤ k", 0-based here): the last index of the prefix that fits in k
 * units, −1 when even the first entry does not fit, and the last index of `Que` when all fit
 * (the arbiter cancels every OK after that index; past the end of `Que` there is none to cancel).
 */
import { describe, expect, it } from 'vitest';
import { Que } from '../src/que.js';

function queOf(...units: number[]): Que {
  const q = new Que('ceiling-fair');
  for (const [p, h] of units.entries()) q.insert({ clock: 1, process: p, units: h, seq: 0, status: 'wait' });
  return q;
}

describe('Que.prefixEnd(k): the last index of the prefix within k units', () => {
  it('−1 for an empty Que or a first entry beyond k, the index where the sum passes k, the last index when all fit', () => {
    expect(queOf().prefixEnd(3)).toBe(-1);
    expect(queOf(3).prefixEnd(2)).toBe(-1);
    expect(queOf(1, 2, 1).prefixEnd(3)).toBe(1); // 1 + 2 = 3 ≤ 3, + 1 > 3
    expect(queOf(1, 1).prefixEnd(3)).toBe(1); // all fit: Quelength − 1
    expect(queOf(2).prefixEnd(2)).toBe(0);
  });
});
