/**
 * The compliance matrix of MUTIN(l), defined once: MUTIN(l) against the compliance suite of @critsec/testing, watched by the global (l, n)
 * monitor, over majority, grid and projective-plane coteries, for a spread of (n, l) with the
 * edges l = 0 and l = n − 1 (k = n = l + 1), with the default mx (Maekawa) — and a few
 * configurations with Ricart–Agrawala and a central coordinator as mx.
 *
 * Abort: MUTIN's Entry() never blocks, so the suite's abort test (which withdraws entries) has
 * nothing to withdraw; exits are aborted in abort.test.ts instead.
 *
 * Initial configuration: every process InCS. The suite's CSMIC test makes a "second call while
 * one is in flight" on the first OutCS process's entry() — but MUTIN's Entry() completes at once
 * without the network, so the follow-up exit() is legal, waits for messages nobody delivers, and
 * the test hangs (a limitation of @critsec/testing's suite, see the package README). With no
 * process OutCS the suite uses an exit(), which stays in flight. Other initial configurations
 * (exactly l InCS, random safe ones) are covered by initial.test.ts.
 */
import { type CSFactory, type CSState, globalSpec } from '@critsec/core';
import { type Coterie, grid, majority, projectivePlane } from '@critsec/coteries';
import { ricartAgrawala } from '@critsec/mutex';
import { centralMutex, roundsPerProcess } from '@critsec/testing';
import { csCompliance } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { mutin } from '../src/index.js';

interface Config {
  readonly coterie: Coterie;
  readonly l: number;
  readonly seeds?: number;
  readonly rounds?: number;
  readonly mx?: [string, CSFactory];
  readonly initial?: readonly CSState[];
  readonly coverage?: readonly string[];
}

const RESPONSE2 = ['mutin:response2-sent', 'mutin:response2-unblocks'];

const configs: Config[] = [
  // majority
  { coterie: majority(2), l: 0 },
  { coterie: majority(2), l: 1 },
  { coterie: majority(3), l: 1, coverage: RESPONSE2 },
  { coterie: majority(3), l: 2 },
  { coterie: majority(5), l: 0 },
  { coterie: majority(5), l: 2, coverage: RESPONSE2 },
  { coterie: majority(5), l: 4 },
  { coterie: majority(9), l: 4, rounds: 1 },
  // grid
  { coterie: grid(2), l: 1 },
  { coterie: grid(3), l: 0 },
  { coterie: grid(5), l: 3 },
  { coterie: grid(9), l: 3 },
  { coterie: grid(9), l: 8 },
  { coterie: grid(13), l: 6, rounds: 1 },
  { coterie: grid(16), l: 5, rounds: 1 },
  { coterie: grid(25), l: 12, rounds: 1, seeds: 67 },
  // projective planes (n = q² + q + 1)
  { coterie: projectivePlane(2), l: 3, coverage: RESPONSE2 },
  { coterie: projectivePlane(3), l: 0, rounds: 1 },
  { coterie: projectivePlane(3), l: 6, rounds: 1 },
  { coterie: projectivePlane(3), l: 12, rounds: 1 },
  // other mutual exclusions as mx
  { coterie: grid(9), l: 4, mx: ['ricart-agrawala', ricartAgrawala()] },
  { coterie: majority(5), l: 1, mx: ['ricart-agrawala', ricartAgrawala()], coverage: RESPONSE2 },
  { coterie: majority(5), l: 3, mx: ['central', centralMutex()] },
];

/**
 * Registers the suite on every configuration with `seedsPerDelay(base)` seeds per delay model,
 * `base` being the configuration's weight (334, or fewer for the large ones): the fast file
 * (`compliance.test.ts`) runs a quarter of it, the long one (`compliance.long.test.ts`) three
 * times it (≥ 3,000 seeds per configuration but n = 25).
 */
export function mutinCompliance(seedsPerDelay: (base: number) => number): void {
  for (const c of configs) {
    const n = c.coterie.n;
    const name = `mutin-${c.coterie.kind}-n${n}-l${c.l}${c.initial ? '-init' : ''}${c.mx ? `-mx-${c.mx[0]}` : ''}`;
    describe(name, () => {
      csCompliance({
        it,
        name,
        factory: mutin({ l: c.l, coterie: c.coterie, ...(c.mx ? { mx: c.mx[1] } : {}) }),
        spec: globalSpec(c.l, n, n),
        initial: c.initial ?? Array.from({ length: n }, () => 'InCS' as const),
        seeds: seedsPerDelay(c.seeds ?? 334),
        rounds: roundsPerProcess(c.rounds),
        abort: false,
        coverage: c.coverage,
      });
    });
  }
}
