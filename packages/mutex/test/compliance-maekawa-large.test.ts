/**
 * Maekawa passes the CS compliance suite on every coterie construction for n ∈ {9, 13, 16, 25}:
 * 334 seeds per delay model × 3 models (unit, uniform(0.1, 2), exponential(1)) = 1,002 seeded
 * concurrent runs per configuration, plus the suite's CSMIC, sequential, determinism, abort and
 * close tests. n ≥ 16 runs one round per process per seed (the per-run cost grows like n·|Q|).
 * The nightly script multiplies the seeds (MUTEX_NIGHTLY_SEEDS).
 */
import { mutexSpec } from '@critsec/core';
import { csCompliance } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { maekawa } from '../src/index.js';
import { coteriesFor } from './helpers.js';

const SEEDS_PER_DELAY = Number(process.env.MUTEX_SEEDS_PER_DELAY ?? 334);

for (const n of [9, 13, 16, 25]) {
  describe(`maekawa, n = ${n}`, () => {
    for (const [label, coterie] of coteriesFor(n)) {
      csCompliance({
        it,
        name: `maekawa-${label}-${n}`,
        factory: maekawa({ coterie }),
        spec: mutexSpec(n),
        seeds: SEEDS_PER_DELAY,
        rounds: n >= 16 ? 1 : 2,
        abort: { seeds: 20 },
        traceDir: '.traces',
        timeout: Number(process.env.MUTEX_TEST_TIMEOUT ?? 300_000),
      });
    }
  });
}
