/**
 * Both variants pass the CS compliance suite with the group monitor (never two groups InCS) on
 * every configuration of the matrix (`configs()` in helpers.ts: surficial for m ∈ {2, 3, 4} and
 * T_m of grid(9) and of the projective plane of order 2, with the subgroup assignment, and three
 * with the systems' own assignment): `SEEDS` seeds per delay model × 3 models
 * (unit, uniform(0.1, 2), exponential(1)), plus CSMIC, sequential, determinism, abort and close
 * tests. The ≥ 10,000-seed runs are in compliance.long.test.ts.
 */
import { groupSpec } from '@critsec/core';
import { csCompliance } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { anyGroup, configs } from './helpers.js';

const SEEDS = Number(process.env.GROUP_MUTEX_SEEDS ?? 25);

for (const variant of ['M', 'S'] as const) {
  describe(`Maekawa_${variant}`, () => {
    for (const [label, { system, assignment }] of configs()) {
      csCompliance({
        it,
        name: `maekawa-${variant}-${label}`,
        factory: groupMutex({ system, variant, assignment }),
        spec: groupSpec(system.m, system.n),
        request: anyGroup(system.m),
        seeds: SEEDS,
        rounds: 2,
        abort: { seeds: 10 },
        traceDir: '.traces',
      });
    }
  });
}
