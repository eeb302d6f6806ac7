import type { CSState } from '@critsec/core';
import { exploreSchedules } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { complete, lkcs, lkcsPlan, localBounds, lmutex, lmutin, ring, star } from '../src/index.js';

/** State budgets (never wall-clock): the explored prefix is the same on any machine. */
const SMALL = 20_000;

async function explore(name: string, options: Parameters<typeof exploreSchedules>[0], budget: number) {
  const r = await exploreSchedules({ ...options, maxStates: budget });
  console.log(
    `${name}: ${r.schedules} schedules, ${r.states} states, exhaustive ${r.exhaustive}, depth ${r.maxDepth}`,
  );
  expect(r.failures).toEqual([]);
  expect(r.deduplicated).toBe(true);
  return r;
}

describe('exhaustive exploration in controlled mode (every delivery order, states deduplicated)', () => {
  it('LMUTIN on star:1 (two neighbours), l = 1, two rounds each: complete, no violation, no deadlock', async () => {
    const g = star(1);
    const initial: CSState[] = ['InCS', 'InCS'];
    const r = await explore(
      'lmutin star:1 l=1',
      { cluster: { factory: lmutin({ graph: g, l: 1 }), spec: localBounds(g, 1, 2), initial }, rounds: 2 },
      SMALL,
    );
    expect(r.exhaustive).toBe(true);
    expect(r.states).toBeGreaterThan(50);
  });

  it('LMUTEX on star:1, k = 1 (local mutual exclusion), two rounds each: complete', async () => {
    const g = star(1);
    const initial: CSState[] = ['OutCS', 'OutCS'];
    const r = await explore(
      'lmutex star:1 k=1',
      { cluster: { factory: lmutex({ graph: g, k: 1 }), spec: localBounds(g, 0, 1), initial }, rounds: 2 },
      SMALL,
    );
    expect(r.exhaustive).toBe(true);
    expect(r.states).toBeGreaterThan(50);
  });

  it('LMUTIN on ring:3, l = 1 (three processes): no violation or deadlock within the budget', async () => {
    const g = ring(3);
    const initial: CSState[] = ['InCS', 'InCS', 'InCS'];
    const r = await explore(
      'lmutin ring:3 l=1',
      { cluster: { factory: lmutin({ graph: g, l: 1 }), spec: localBounds(g, 1, 3), initial }, rounds: 1 },
      1_500, // the explorations of compliance.long.test.ts go further
    );
    expect(r.exhaustive || r.states >= 1_500).toBe(true);
  });

  it('LKCS on complete:5 (1,4), the smallest graph with a leader: no violation or deadlock within the budget', async () => {
    const g = complete(5);
    const plan = lkcsPlan(g, 1, 4);
    const initial: CSState[] = ['InCS', 'InCS', 'OutCS', 'OutCS', 'OutCS'];
    const r = await explore(
      'lkcs complete:5 (1,4)',
      { cluster: { factory: lkcs({ graph: g, l: 1, k: 4 }), spec: plan.spec, initial }, rounds: 1 },
      500, // 10,000 in compliance.long.test.ts
    );
    expect(r.exhaustive || r.states >= 500).toBe(true);
  });
});
