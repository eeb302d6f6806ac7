/**
 * The long compliance run (npm run test:long): both variants on every configuration of the
 * matrix (`configs()`: surficial for m ∈ {2, 3, 4}, T_m(grid(9)), T_m(projective plane of order
 * 2), with the subgroup assignment and three with the systems' own assignment), 1,800 seeds per
 * delay model × 2 models (uniform(0.1, 2), exponential(1)) × 10 configurations × 2 variants =
 * 72,000 seeded concurrent runs of 2 rounds per process with the group monitor: 0 violations, 0 stuck
 * processes (Theorems 4 and 8, lockout freedom). Plus the suite's abort test on 500 seeds per
 * configuration (10,000 runs with aborted entries). Rare-path coverage: coverage.test.ts.
 *
 * Two rounds per process, three until 2026-11-28: what the run checks — never two groups InCS,
 * every process completes its rounds — a third round adds no new kind of step to (a request made
 * after one's own exit, with the state that exit left, is the second round's), and a run of two
 * rounds costs about three quarters of one of three (0.744, measured over every configuration).
 */
import { groupSpec } from '@critsec/core';
import { csCompliance } from '@critsec/testing/cs';
import { exponentialDelay, uniformDelay } from '@critsec/transport-sim';
import { describe, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { anyGroup, configs } from './helpers.js';

const SEEDS = Number(process.env.GROUP_MUTEX_LONG_SEEDS ?? 1800);

for (const variant of ['M', 'S'] as const) {
  describe(`Maekawa_${variant}, long`, () => {
    for (const [label, { system, assignment }] of configs()) {
      csCompliance({
        it,
        name: `long-maekawa-${variant}-${label}`,
        factory: groupMutex({ system, variant, assignment }),
        spec: groupSpec(system.m, system.n),
        request: anyGroup(system.m),
        seeds: SEEDS,
        rounds: 2,
        delays: [uniformDelay(0.1, 2), exponentialDelay(1)],
        abort: { seeds: 500 },
        traceDir: '.traces',
      });
    }
  });
}
