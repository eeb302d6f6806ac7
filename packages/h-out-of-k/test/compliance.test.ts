/**
 * The compliance suite of `@critsec/testing` (CSMIC, safety and liveness over seeded schedules
 * with the h-out-of-k monitor — Σ units held ≤ k at every state change — sequential workload,
 * determinism, abort, close, rare-path coverage) on uniform and (k+1)-cube (h,k)-arbiters, h drawn
 * per entry in 1..k. The fast suite runs 60 seeds per delay model and configuration; the ≥ 10,000
 * seed runs are in `compliance.long.test.ts`.
 */
import { hOutOfKSpec } from '@critsec/core';
import { cubeHKArbiter, type HKArbiter, uniformHKArbiter } from '@critsec/coteries';
import { csCompliance } from '@critsec/testing/cs';
import { describe, expect, it } from 'vitest';
import { hOutOfK, hOutOfKRarePaths } from '../src/index.js';
import { minRequesters, randomH } from './helpers.js';

const configs: [string, HKArbiter][] = [
  ['uniform n=4 k=2', uniformHKArbiter(4, 2)],
  ['uniform n=6 k=3', uniformHKArbiter(6, 3)],
  ['cube n=8 k=2', cubeHKArbiter(8, 2)],
  ['cube n=16 k=3', cubeHKArbiter(16, 3)],
];

for (const [name, arbiter] of configs) {
  const { n, k } = arbiter;
  describe(`hOutOfK, ${name}`, () => {
    it('every arbiter serves at least 3 requesters (contention reaches the cancel rules)', () => {
      expect(minRequesters(arbiter)).toBeGreaterThanOrEqual(3);
    });
    csCompliance<number>({
      it,
      name: `h-out-of-k-${name.replaceAll(' ', '-')}`,
      factory: hOutOfK({ k, arbiter }),
      spec: hOutOfKSpec(k, n),
      request: randomH(k),
      seeds: 60,
      rounds: 3,
      think: 1,
      hold: 1,
      abort: { seeds: 60 },
      coverage: name === 'uniform n=6 k=3' ? hOutOfKRarePaths : undefined,
    });
  });
}
