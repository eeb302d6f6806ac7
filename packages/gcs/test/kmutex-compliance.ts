/**
 * k-mutual exclusion = Co-MUTIN(n−k) against the compliance suite, watched by the global (0, k)
 * monitor, on majority, grid and projective-plane coteries; edges k = 1 (mutual exclusion, i.e.
 * complement(mutin({ l: n−1 }))) and k = n. Aborted entries here are aborted MUTIN exits.
 */
import { globalSpec, mutexSpec } from '@critsec/core';
import { grid, majority, projectivePlane } from '@critsec/coteries';
import { complement } from '@critsec/complement';
import { ricartAgrawala } from '@critsec/mutex';
import { mutin } from '@critsec/mutin';
import { csCompliance } from '@critsec/testing/cs';
import { roundsPerProcess } from '@critsec/testing';
import { describe, it } from 'vitest';
import { kMutex } from '../src/index.js';
import { type Config, configName } from './matrix.js';

const ABORT = ['mutin:exit-aborted'];
const RESPONSE2 = ['mutin:response2-sent', 'mutin:response2-unblocks'];

const configs: Config[] = [
  { coterie: majority(2), l: 0, k: 1 },
  { coterie: majority(2), l: 0, k: 2 },
  { coterie: majority(3), l: 0, k: 1, coverage: [...ABORT, ...RESPONSE2] },
  { coterie: majority(3), l: 0, k: 2 },
  { coterie: majority(5), l: 0, k: 1 },
  { coterie: majority(5), l: 0, k: 3, coverage: ABORT },
  { coterie: majority(5), l: 0, k: 5 },
  { coterie: grid(4), l: 0, k: 2 },
  { coterie: grid(9), l: 0, k: 1 },
  { coterie: grid(9), l: 0, k: 4 },
  { coterie: grid(16), l: 0, k: 8, rounds: 1 },
  { coterie: grid(25), l: 0, k: 5, rounds: 1, seeds: 67 },
  { coterie: projectivePlane(2), l: 0, k: 2 },
  { coterie: projectivePlane(3), l: 0, k: 1, rounds: 1 },
  { coterie: projectivePlane(3), l: 0, k: 6, rounds: 1 },
  { coterie: projectivePlane(3), l: 0, k: 13, rounds: 1 },
  { coterie: grid(9), l: 0, k: 3, mx: ['ricart-agrawala', ricartAgrawala()] },
];

/** Registers the kMutex matrix with `seedsPerDelay(base)` seeds per delay model (`base` 334 unless the configuration says fewer; `coverage`: the configuration checks that every rare path was taken, which needs enough seeds). */
export function kMutexCompliance(seedsPerDelay: (base: number, coverage: boolean) => number): void {
  for (const c of configs) {
    const n = c.coterie.n;
    const name = configName('kmutex', c);
    describe(name, () => {
      csCompliance({
        it,
        name,
        factory: kMutex({ k: c.k, coterie: c.coterie, ...(c.mx ? { mx: c.mx[1] } : {}) }),
        spec: globalSpec(0, c.k, n),
        seeds: seedsPerDelay(c.seeds ?? 334, c.coverage !== undefined),
        rounds: roundsPerProcess(c.rounds),
        coverage: c.coverage,
      });
    });
  }

  describe('complement(mutin({ l: n − 1 })) is a plain mutual exclusion', () => {
    for (const coterie of [majority(5), grid(9), projectivePlane(2)]) {
      const n = coterie.n;
      csCompliance({
        it,
        name: `co-mutin-${coterie.kind}-n${n}-l${n - 1}`,
        factory: complement(mutin({ l: n - 1, coterie })),
        spec: mutexSpec(n),
        seeds: seedsPerDelay(334, false),
        rounds: roundsPerProcess(),
      });
    }
  });
}
