/**
 * Exhaustive schedule exploration in controlled mode (every delivery order of the heads of the
 * FIFO links and every invocation order), states deduplicated by `inspect()` fingerprints,
 * budgeted by STATES. The smallest instance, n = 3 and k = 2 with one request per process of
 * h = 1, 2, 1 (together 4 units for 2), two ways:
 *
 * - one arbiter (every quorum {P0}; a valid (h,k)-arbiter): explored completely here;
 * - two arbiters (every quorum {P0, P1}: the OKs of one request can be split, the case the
 *   cancel rule exists for): 2,500 states here, completely (397,171 states) in
 *   `explore.long.test.ts`.
 *
 * The mutants of the grant rule are explored too: each must be caught.
 */
import { hOutOfKSpec } from '@critsec/core';
import { type ExploreResult, exploreSchedules } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { hOutOfKWithArbiter } from '../src/factory.js';
import { fixedArbiter } from './helpers.js';
import { arbiters, type Rules } from './mutant-arbiters.js';

const n = 3;
const k = 2;
const hs = [1, 2, 1];
const report: string[] = [];
afterAll(() => console.info(report.join('\n')));

function explore(quorum: number[], rules: Rules, maxStates: number): Promise<ExploreResult> {
  return exploreSchedules({
    cluster: {
      factory: hOutOfKWithArbiter({ k, arbiter: fixedArbiter(n, k, quorum) }, arbiters[rules]),
      spec: hOutOfKSpec(k, n),
    },
    rounds: 1,
    request: (_rng, i) => hs[i]!,
    maxStates,
    maxSchedules: Number.MAX_SAFE_INTEGER,
  });
}

describe('exhaustive exploration, n = 3, k = 2, h = (1, 2, 1)', () => {
  it('one arbiter: every schedule safe and live, state space complete', async () => {
    const r = await explore([0], 'fig1', 50_000);
    report.push(
      `explore n=3 k=2 quorum {P0}: ${r.states} states, ${r.schedules} schedules, exhaustive ${r.exhaustive}`,
    );
    expect(r.failures).toEqual([]);
    expect(r.deduplicated).toBe(true);
    expect(r.exhaustive).toBe(true);
    expect(r.states).toBe(1829);
  });

  it('two arbiters: 2,500 states without a failure (the whole space: explore.long.test.ts)', async () => {
    const r = await explore([0, 1], 'fig1', 2_500);
    report.push(`explore n=3 k=2 quorum {P0,P1}: ${r.states} states (budget), ${r.schedules} schedules`);
    expect(r.failures).toEqual([]);
    expect(r.states).toBeGreaterThanOrEqual(2_500);
  });

  it('the grant-rule mutant (no x ≥ h check) is caught: a schedule with 3 units held', async () => {
    const r = await explore([0], 'mutant-grant', 50_000);
    report.push(`explore mutant-grant: ${r.failures.length} failing schedules of ${r.schedules}`);
    expect(r.failures.length).toBeGreaterThan(0);
    expect(r.failures[0]!.kind).toBe('violation');
    expect(r.failures[0]!.message).toMatch(/3 units held InCS, more than k = 2/);
  });

  it('the no-cancel mutant is caught: two arbiters split their OKs and deadlock', async () => {
    const r = await explore([0, 1], 'mutant-no-cancel', 3_000);
    report.push(`explore mutant-no-cancel: ${r.failures.length} failing schedules of ${r.schedules}`);
    expect(r.failures.length).toBeGreaterThan(0);
    expect(r.failures.every((f) => f.kind === 'deadlock')).toBe(true);
  });
});
