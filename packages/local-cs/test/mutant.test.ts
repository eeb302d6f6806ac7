/**
 * The suite has teeth: a grant rule allowing one grant too many (`|N_j| − l_j + 2` exits at a
 * time, where `Cond_j` of Algorithm 2 allows `|N_j| − l_j + 1`) is caught on the first seed, for
 * LMUTIN and for LMUTEX (its complement). The mutant lives here, not in `src/`: this file replaces
 * `Arbiter` (`src/arbiter.ts`) by a subclass constructed with one grant more.
 */
import type { CSFactory, CSState, LocalSpec } from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { unitDelay } from '@critsec/transport-sim';
import { describe, expect, it, vi } from 'vitest';
import { localBounds, safeInitial } from '../src/config.js';
import { grid, ring } from '../src/graphs.js';
import { lmutin } from '../src/lmutin.js';
import { lmutex } from '../src/lmutex.js';

vi.mock('../src/arbiter.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/arbiter.js')>();
  /** The arbiter with one grant more than `Cond_i` allows. */
  class GrantLimitPlusOne extends original.Arbiter {
    constructor(...[limit, ...rest]: ConstructorParameters<typeof original.Arbiter>) {
      super(limit + 1, ...rest);
    }
  }
  return { ...original, Arbiter: GrantLimitPlusOne };
});

async function run(factory: CSFactory, spec: LocalSpec, initial: readonly CSState[]) {
  const c = createCluster({ factory, spec, initial, seed: 1, delay: unitDelay });
  return runWorkload(c, { rounds: 3 });
}

describe('mutants of the grant rule are caught', () => {
  it('LMUTIN granting |N_j| − l_j + 2 exits at a time: the monitor fails the first seed', async () => {
    const g = ring(6);
    const spec = localBounds(g, 1, 3);
    const r = await run(lmutin({ graph: g, l: 1 }), spec, safeInitial(spec));
    expect(r.violation?.message).toMatch(/fewer than l_/);
  });
  it('LMUTEX (its complement) with the same mutant lets k_i + 1 in', async () => {
    const g = grid(3, 3);
    const spec = localBounds(g, 0, 2);
    const r = await run(lmutex({ graph: g, k: 2 }), spec, safeInitial(spec));
    expect(r.violation?.message).toMatch(/more than k_/);
  });
});
