/**
 * (l,k)-GCS = compose(mutin({ l }), kMutex({ k })) against the compliance suite, watched by the
 * global (l, k) monitor, on majority, grid and projective-plane coteries, for a spread of
 * (n, l, k) with the edges l = 0, k = n and k = l + 1; Maekawa by default, Ricart–Agrawala and
 * a central coordinator as mx in two configurations.
 */
import { globalSpec } from '@critsec/core';
import { grid, majority, projectivePlane } from '@critsec/coteries';
import { ricartAgrawala } from '@critsec/mutex';
import { centralMutex, roundsPerProcess } from '@critsec/testing';
import { csCompliance } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { gcs } from '../src/index.js';
import { type Config, configName } from './matrix.js';

const RARE = ['mutin:response2-sent', 'mutin:response2-unblocks', 'mutin:exit-aborted'];

const configs: Config[] = [
  { coterie: majority(2), l: 0, k: 1 },
  { coterie: majority(2), l: 1, k: 2 },
  { coterie: majority(3), l: 1, k: 2, coverage: RARE },
  { coterie: majority(3), l: 0, k: 3 },
  { coterie: majority(3), l: 2, k: 3 },
  { coterie: majority(5), l: 1, k: 3, coverage: RARE },
  { coterie: majority(5), l: 2, k: 3 },
  { coterie: majority(5), l: 0, k: 5 },
  { coterie: majority(5), l: 4, k: 5 },
  { coterie: grid(9), l: 2, k: 5 },
  { coterie: grid(9), l: 0, k: 1 },
  { coterie: grid(12), l: 2, k: 5, rounds: 1 },
  { coterie: grid(16), l: 4, k: 12, rounds: 1, seeds: 200 },
  { coterie: grid(25), l: 3, k: 10, rounds: 1, seeds: 34 },
  { coterie: projectivePlane(2), l: 1, k: 4 },
  { coterie: projectivePlane(2), l: 3, k: 4 },
  { coterie: projectivePlane(3), l: 3, k: 4, rounds: 1 },
  { coterie: projectivePlane(3), l: 0, k: 13, rounds: 1 },
  { coterie: majority(5), l: 1, k: 3, mx: ['ricart-agrawala', ricartAgrawala()] },
  { coterie: grid(9), l: 2, k: 5, mx: ['central', centralMutex()] },
];

/** Registers the (l,k)-GCS matrix with `seedsPerDelay(base)` seeds per delay model (`base` 334 unless the configuration says fewer; `coverage`: the configuration checks that every rare path was taken, which needs enough seeds). */
export function gcsCompliance(seedsPerDelay: (base: number, coverage: boolean) => number): void {
  for (const c of configs) {
    const n = c.coterie.n;
    const name = configName('gcs', c);
    describe(name, () => {
      csCompliance({
        it,
        name,
        factory: gcs({ l: c.l, k: c.k, coterie: c.coterie, ...(c.mx ? { mx: c.mx[1] } : {}) }),
        spec: globalSpec(c.l, c.k, n),
        seeds: seedsPerDelay(c.seeds ?? 334, c.coverage !== undefined),
        rounds: roundsPerProcess(c.rounds),
        coverage: c.coverage,
      });
    });
  }
}
