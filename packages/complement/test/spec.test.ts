import {
  ConfigurationError,
  complementSpec as coreComplementSpec,
  globalSpec,
  graphFromEdges,
  hOutOfKSpec,
  localSpec,
} from '@critsec/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { complement, complementSpec } from '../src/index.js';

describe('complement of a problem spec (Thm. 1; local-CS paper Thm. 2)', () => {
  it('global (l, k, n) ↦ (n − k, n − l): mutual exclusion ↔ (n−1)-mutual inclusion', () => {
    expect(complement(globalSpec(0, 1, 5))).toEqual(globalSpec(4, 5, 5));
    expect(complement(globalSpec(2, 5, 12))).toEqual(globalSpec(7, 10, 12));
    expect(complementSpec).toBe(coreComplementSpec);
  });

  it('is an involution and keeps 0 ≤ l < k ≤ n (property)', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 200 })
          .chain((n) =>
            fc
              .tuple(fc.constant(n), fc.integer({ min: 0, max: n - 1 }))
              .chain(([n, l]) =>
                fc.tuple(fc.constant(n), fc.constant(l), fc.integer({ min: l + 1, max: n })),
              ),
          ),
        ([n, l, k]) => {
          const c = complement(globalSpec(l, k, n));
          expect(c).toEqual({ kind: 'global', n, l: n - k, k: n - l });
          expect(complement(c)).toEqual(globalSpec(l, k, n));
        },
      ),
    );
  });

  it('local (l_i, k_i) ↦ (|N_i|+1−k_i, |N_i|+1−l_i)', () => {
    const g = graphFromEdges(4, [
      [0, 1],
      [1, 2],
      [2, 3],
      [1, 3],
    ]);
    // |N_i|+1 = 2, 4, 3, 3
    const s = localSpec(g, [0, 1, 1, 0], [1, 3, 2, 3]);
    const c = complement(s);
    expect(c.l).toEqual([1, 1, 1, 0]);
    expect(c.k).toEqual([2, 3, 2, 3]);
    expect(complement(c)).toEqual(s);
  });

  it('refuses specs without a complement with a ConfigurationError', () => {
    expect(() => complement(hOutOfKSpec(3, 5) as never)).toThrow(ConfigurationError);
    expect(() => complement(42 as never)).toThrow(
      /expected a CS factory, a CS object or a global\/local problem spec/,
    );
    expect(() => complement(null as never)).toThrow(ConfigurationError);
  });
});
