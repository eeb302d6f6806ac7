/**
 * The long compliance run of Maekawa (`npm run test:long`): every distinct coterie construction
 * for n ∈ {1, …, 25}, 1,000 seeds per delay model (3,000 seeded concurrent runs per
 * configuration). `CRITSEC_SEEDS` sets another count per delay model.
 *
 * What it does not run twice:
 * - constructions that give the very same quorum assignment at an n (all five at n = 1; grid,
 *   wall and custom at n = 2; tree(3) = grid(3)) run once, under the first label: the same seed
 *   on the same assignment is the same run;
 * - the 2×2 grid, the projective plane of order 2 and the 3×3 grid under uniform and
 *   exponential delays are the deadlock hunt's (`deadlock-hunt.long.test.ts`: 10,000 seeds
 *   each, half under each of those delays, two rounds, more contention); here they run under
 *   unit delays, with the suite's other tests.
 *
 * Two rounds per process below n = 16, one from n = 16 (the per-run cost grows like n·|Q|).
 */
import { mutexSpec } from '@critsec/core';
import type { Coterie } from '@critsec/coteries';
import { seedsPerDelay } from '@critsec/testing';
import { csCompliance, type TestFn } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { maekawa } from '../src/index.js';
import { coteriesFor, SIZES } from './helpers.js';

const SEEDS = seedsPerDelay(1_000);
/** The deadlock hunt's configurations (`hunt.ts`), as `label-n`. */
const HUNTED = new Set(['grid-4', 'projective-plane-7', 'grid-9']);

/** The constructions of `coteriesFor(n)` with a quorum assignment no earlier one has. */
function distinctCoteries(n: number): [string, Coterie][] {
  const seen = new Set<string>();
  return coteriesFor(n).filter(([, c]) => {
    const key = JSON.stringify(c.toJSON().assignment);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `it`, without the random-delay safety tests of a configuration the deadlock hunt runs. */
function registerFor(config: string): TestFn {
  if (!HUNTED.has(config)) return it;
  return (name, fn, timeout) =>
    /safety and liveness over .* delay (uniform|exponential)/.test(name) ? undefined : it(name, fn, timeout);
}

for (const n of SIZES) {
  describe(`maekawa, n = ${n}`, () => {
    for (const [label, coterie] of distinctCoteries(n)) {
      csCompliance({
        it: registerFor(`${label}-${n}`),
        name: `maekawa-${label}-${n}`,
        factory: maekawa({ coterie }),
        spec: mutexSpec(n),
        seeds: SEEDS,
        rounds: n >= 16 ? 1 : 2,
        abort: { seeds: 20 },
        traceDir: '.traces',
      });
    }
  });
}
