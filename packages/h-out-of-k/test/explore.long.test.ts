/**
 * The long explorations (`npm run test:long`), n = 3, k = 2, h = (1, 2, 1), one round each:
 * two arbiters (every quorum {P0, P1}) explored completely — 397,171 distinct states — and the
 * uniform (h,k)-arbiter (|q_1| = 3, |q_2| = 2) up to 300,000 states.
 */
import { hOutOfKSpec } from '@critsec/core';
import { type HKArbiter, uniformHKArbiter } from '@critsec/coteries';
import { exploreSchedules } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { hOutOfK } from '../src/index.js';
import { fixedArbiter } from './helpers.js';

const n = 3;
const k = 2;
const hs = [1, 2, 1];

function explore(arbiter: HKArbiter, maxStates: number) {
  return exploreSchedules({
    cluster: { factory: hOutOfK({ k, arbiter }), spec: hOutOfKSpec(k, n) },
    rounds: 1,
    request: (_rng, i) => hs[i]!,
    maxStates,
    maxSchedules: Number.MAX_SAFE_INTEGER,
  });
}

describe('long explorations, n = 3, k = 2', () => {
  it('two arbiters {P0, P1}: complete, every schedule safe and live', async () => {
    const r = await explore(fixedArbiter(n, k, [0, 1]), 1_000_000);
    console.info(
      `explore n=3 k=2 quorum {P0,P1}: ${r.states} states, ${r.schedules} schedules, exhaustive ${r.exhaustive}`,
    );
    expect(r.failures).toEqual([]);
    expect(r.exhaustive).toBe(true);
    expect(r.states).toBe(397_171);
  });

  it('uniform (h,k)-arbiter: 300,000 states, every schedule safe and live', async () => {
    const r = await explore(uniformHKArbiter(n, k), 300_000);
    console.info(`explore n=3 k=2 uniform: ${r.states} states (budget), ${r.schedules} schedules`);
    expect(r.failures).toEqual([]);
    expect(r.states).toBeGreaterThanOrEqual(300_000);
  });
});
