import { createCluster, runWorkload } from '@critsec/harness';
import { exponentialDelay, type DelayModel, uniformDelay, unitDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { localBounds, safeInitial } from '../src/config.js';
import { complete, grid, ring } from '../src/graphs.js';
import { lkcsWith } from '../src/lkcs.js';
import { lkcsPlan } from '../src/lkcs-plan.js';
import { lmutinWith } from '../src/lmutin.js';
import type { CSFactory, LocalSpec, CSState } from '@critsec/core';

async function run(
  factory: CSFactory,
  spec: LocalSpec,
  initial: readonly CSState[],
  seed: number,
  delay: DelayModel,
) {
  const c = createCluster({ factory, spec, initial, seed, delay });
  return runWorkload(c, { rounds: 3 });
}

describe('LMUTIN: untagged Preempt / Relinquish (Algorithm 2 as printed) break safety', () => {
  // A Preempt sent while P_h is OutCS reaches it after its entry-sequence: Algorithm 2 answers it
  // (state = InCS) with Relinquish; the arbiter, whose grant P_h already released, deletes nothing
  // and still grants the head of pendingReq — one exit more than |N_j| − l_j + 1.
  const cases = [
    { name: 'ring:6, l = 1, unit delays, seed 32', g: ring(6), l: 1, seed: 32, delay: unitDelay },
    {
      name: 'grid:3x3, l = 2, exponential(1), seed 1',
      g: grid(3, 3),
      l: 2,
      seed: 1,
      delay: exponentialDelay(1),
    },
  ];
  for (const x of cases) {
    const spec = localBounds(x.g, x.l, (_i, d) => d + 1);
    const initial = safeInitial(spec);
    it(`${x.name}: printed rules violate l_i; tagged rules (default) complete`, async () => {
      const printed = await run(
        lmutinWith({ graph: x.g, l: x.l }, { rules: 'printed' }),
        spec,
        initial,
        x.seed,
        x.delay,
      );
      expect(printed.violation?.message).toMatch(/fewer than l_/);
      const fixed = await run(lmutinWith({ graph: x.g, l: x.l }, {}), spec, initial, x.seed, x.delay);
      expect(fixed.ok).toBe(true);
    });
  }
});

describe('LKCS: one sidetrack of each type at a time', () => {
  const g = complete(6);
  const plan = lkcsPlan(g, 1, 4);
  const initial = safeInitial(plan.tightened);
  it('complete:6 (1,4), uniform(0.1, 2), seed 1: the printed nomination (Algorithm 4) lets k_i + 1 in; the default completes', async () => {
    // Algorithm 4 nominates again as soon as Waiting_LDR = |N_LDR| + 1 holds anew, while an earlier
    // trigger still holds its sidetrack grant: two entries beyond K_i = k_i − 1 at once
    const printed = await run(
      lkcsWith({ graph: g, l: 1, k: 4 }, 'printed'),
      plan.spec,
      initial,
      1,
      uniformDelay(0.1, 2),
    );
    expect(printed.violation?.message).toMatch(/more than k_/);
    const fixed = await run(
      lkcsWith({ graph: g, l: 1, k: 4 }, 'one-per-type'),
      plan.spec,
      initial,
      1,
      uniformDelay(0.1, 2),
    );
    expect(fixed.ok).toBe(true);
  });

  it('complete:6 (1,4), exponential(1), seed 1: a Release that always grants (Algorithm 5 as printed) lets k_i + 1 in', async () => {
    // after a sidetrack grant pushed grantedTo[MUTEX] to K_i + 1, the printed Release hands the
    // freed slot to a normal request: the slack is spent twice
    const printed = await run(
      lkcsWith({ graph: g, l: 1, k: 4 }, 'release-printed'),
      plan.spec,
      initial,
      1,
      exponentialDelay(1),
    );
    expect(printed.violation?.message).toMatch(/more than k_|fewer than l_/);
    const fixed = await run(
      lkcsWith({ graph: g, l: 1, k: 4 }, 'one-per-type'),
      plan.spec,
      initial,
      1,
      exponentialDelay(1),
    );
    expect(fixed.ok).toBe(true);
  });

  it('the limit of LKCS: on grid:3x3 with (0, 3) the leader cannot break every deadlock (README)', async () => {
    const gg = grid(3, 3);
    const k = (_i: number, d: number) => Math.min(d + 1, 3);
    const p = lkcsPlan(gg, 0, k);
    const r = await run(
      lkcsWith({ graph: gg, l: 0, k }, 'one-per-type'),
      p.spec,
      safeInitial(p.tightened),
      1,
      unitDelay,
    );
    // safe, but stuck: both types' sidetracks are held by processes that wait for the other type
    expect(r.violation).toBeNull();
    expect(r.ok).toBe(false);
    expect(r.stuck.length).toBe(9);
  });
});
