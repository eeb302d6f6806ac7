import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coterieByName, nearestCoterieSize } from '../src/index.js';
import { PROJECTIVE_PLANE_SIZES, wallWidths } from '../src/by-name.js';

describe('coteries by name', () => {
  it('wallWidths: a top row of one, then rows of at least 2 summing to n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), (n) => {
        const w = wallWidths(n);
        expect(w.reduce((a, b) => a + b, 0)).toBe(n);
        if (n > 2) expect(w[0]).toBe(1);
        for (const x of w.slice(1)) expect(x).toBeGreaterThanOrEqual(2);
      }),
    );
    expect(() => coterieByName('wall', 64)).not.toThrow();
  });

  it('nearestCoterieSize picks sizes the constructions exist for', () => {
    expect(nearestCoterieSize('projective-plane', 16)).toBe(13);
    expect(nearestCoterieSize('projective-plane', 64)).toBe(57);
    expect(nearestCoterieSize('tree', 16)).toBe(15);
    expect(nearestCoterieSize('tree', 1024)).toBe(1023);
    expect(nearestCoterieSize('grid', 100)).toBe(100);
    for (const n of [16, 64, 256, 1024]) {
      expect(PROJECTIVE_PLANE_SIZES).toContain(nearestCoterieSize('projective-plane', n));
      expect(() =>
        coterieByName('projective-plane', nearestCoterieSize('projective-plane', n)),
      ).not.toThrow();
    }
  });
});
