/**
 * Safety and liveness from other initial configurations than the compliance matrix's all-InCS:
 * exactly l InCS (the tightest: the first exit blocks at once), and random safe configurations
 * drawn by fast-check — seeded concurrent workloads under every delay model, watched by the
 * global (l, n) monitor.
 */
import { type CSState, globalSpec } from '@critsec/core';
import { type Coterie, grid, majority, projectivePlane } from '@critsec/coteries';
import { defaultDelays, runSeed } from '@critsec/testing/cs';
import fc from 'fast-check';
import { seedsPerDelay } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { mutin } from '../src/index.js';

const coteries: Record<string, (n: number) => Coterie> = {
  majority,
  grid,
  'projective-plane': (n: number) => projectivePlane(n === 7 ? 2 : 3),
};

describe('MUTIN(l) from exactly l processes InCS', () => {
  for (const [kind, n, l] of [
    ['majority', 3, 1],
    ['majority', 5, 2],
    ['grid', 9, 4],
    ['projective-plane', 7, 3],
    ['grid', 2, 1],
  ] as const) {
    it(`${kind} n=${n} l=${l}: ${seedsPerDelay(100)} seeds per delay model`, async () => {
      const coterie = coteries[kind]!(n);
      const initial: CSState[] = Array.from({ length: n }, (_, i) => (i < l ? 'InCS' : 'OutCS'));
      for (const [d, delay] of defaultDelays.entries()) {
        for (let s = 0; s < seedsPerDelay(100); s++) {
          const r = await runSeed(
            {
              it,
              name: `mutin-initial-${kind}-${n}-${l}`,
              factory: mutin({ l, coterie }),
              spec: globalSpec(l, n, n),
              initial,
              rounds: 2,
            },
            1 + 1000 * d + s,
            delay,
          );
          expect(r.ok).toBe(true);
        }
      }
    });
  }
});

describe('MUTIN(l) from random safe initial configurations (property)', () => {
  it('never fewer than l InCS, every process completes its rounds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('majority', 'grid', 'projective-plane'),
        fc.integer({ min: 2, max: 9 }),
        fc.array(fc.boolean(), { minLength: 13, maxLength: 13 }),
        fc.nat(),
        fc.nat(2),
        fc.nat(),
        async (kind, n0, bits, lSeed, d, seed) => {
          const n = kind === 'projective-plane' ? 7 : n0;
          const coterie = coteries[kind]!(n);
          const initial: CSState[] = bits.slice(0, n).map((b) => (b ? 'InCS' : 'OutCS'));
          const inCS = initial.filter((s) => s === 'InCS').length;
          const l = Math.min(lSeed % n, inCS);
          const r = await runSeed(
            {
              it,
              name: `mutin-random-${kind}-${n}-${l}`,
              factory: mutin({ l, coterie }),
              spec: globalSpec(l, n, n),
              initial,
              rounds: 2,
            },
            seed,
            defaultDelays[d]!,
          );
          expect(r.ok).toBe(true);
        },
      ),
      { numRuns: 300, seed: 20191 },
    );
  });
});
