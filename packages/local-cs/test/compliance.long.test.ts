import type { CSState } from '@critsec/core';
import { exploreSchedules, seedsPerDelay } from '@critsec/testing';
import { csCompliance } from '@critsec/testing/cs';
import { afterAll, describe, expect, it } from 'vitest';
import { complete, lkcs, lkcsPlan, localBounds, lmutin, ring } from '../src/index.js';
import { type Instance, lkcsFamilies, lmutexFamilies, lmutinFamilies, setupOf } from './families.js';

// ≥ 10⁴ seeds in total: every instance × 3 delay models × SEEDS (+ 200 abort seeds each for
// LMUTIN and LMUTEX); each csCompliance test fails at the first violation or stuck process
const SEEDS = seedsPerDelay(250);
const runs: string[] = [];
let total = 0;

function suite(x: Instance, abort: boolean) {
  csCompliance({
    it,
    ...setupOf(x),
    seeds: SEEDS,
    abort: abort ? { seeds: 200 } : false,
  });
  const seeds = 3 * SEEDS + (abort ? 200 : 0);
  total += seeds;
  runs.push(`${x.name.padEnd(28)} ${String(seeds).padStart(6)} seeds, 0 violations, 0 stuck`);
}

describe('long: LMUTIN', () => {
  for (const x of lmutinFamilies()) suite(x, true);
});
describe('long: LMUTEX', () => {
  for (const x of lmutexFamilies()) suite(x, true);
});
describe('long: LKCS', () => {
  for (const x of lkcsFamilies()) suite(x, false);
});

// Budgets 60,000 and 30,000 states until 2026-11-28: the explorer's depth-first order is
// deterministic, so these are the first third of the same searches (none of those states failing)
// and cost a third; neither search was complete at either budget.
describe('long: explorations', () => {
  it('LMUTIN ring:3, l = 1, one round each: no violation or deadlock in 20,000 states', async () => {
    const g = ring(3);
    const initial: CSState[] = ['InCS', 'InCS', 'InCS'];
    const r = await exploreSchedules({
      cluster: { factory: lmutin({ graph: g, l: 1 }), spec: localBounds(g, 1, 3), initial },
      rounds: 1,
      maxStates: 20_000,
    });
    console.log(`lmutin ring:3: ${r.states} states, ${r.schedules} schedules, exhaustive ${r.exhaustive}`);
    expect(r.failures).toEqual([]);
    expect(r.exhaustive || r.states >= 20_000).toBe(true);
  });
  it('LKCS complete:5 (1,4): no violation or deadlock in 10,000 states', async () => {
    const g = complete(5);
    const initial: CSState[] = ['InCS', 'InCS', 'OutCS', 'OutCS', 'OutCS'];
    const r = await exploreSchedules({
      cluster: { factory: lkcs({ graph: g, l: 1, k: 4 }), spec: lkcsPlan(g, 1, 4).spec, initial },
      rounds: 1,
      maxStates: 10_000,
    });
    console.log(`lkcs complete:5: ${r.states} states, ${r.schedules} schedules, exhaustive ${r.exhaustive}`);
    expect(r.failures).toEqual([]);
    expect(r.exhaustive || r.states >= 10_000).toBe(true);
  });
});

afterAll(() => {
  console.log(`${runs.join('\n')}\ntotal ${total} seeds`);
  expect(total).toBeGreaterThanOrEqual(10_000);
});
