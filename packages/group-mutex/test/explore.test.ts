/**
 * Exhaustive, state-deduplicated exploration in controlled mode (DESIGN.md 4): every
 * interleaving of message deliveries (the head of each FIFO link) and invocations, each process
 * doing one entry+exit round, states deduplicated on every variable of Figs. 5–8 (`inspect()`),
 * the monitor's configuration, the workload's progress and every queued message.
 *
 * The smallest instance: surficial(3, 3) (k = 1: C_0 = {{0,1}}, C_1 = {{0,2}}, C_2 = {{1,2}}),
 * P0 and P2 requesting group 0, P1 group 1 — a conflict and a chance to share.
 *
 * - Maekawa_S: the whole space (825 states), no violation, no deadlock.
 * - Maekawa_M: budgeted at 2,000 states here (no failure); its whole space (29,564 states) is
 *   explored by explore.long.test.ts, with surficial(4, 2) for both variants.
 */
import { groupSpec } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { type ExploreResult, exploreSchedules } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';

const report: string[] = [];
afterAll(() => console.info(report.join('\n')));

function line(label: string, r: ExploreResult): string {
  return `${label}: ${r.schedules} complete schedules, ${r.states} distinct states, max depth ${r.maxDepth}, exhaustive ${r.exhaustive}, failures ${r.failures.length}`;
}

const system = surficial(3, 3);
const options = (variant: 'M' | 'S', maxStates = Number.POSITIVE_INFINITY) => ({
  cluster: { factory: groupMutex({ system, variant }), spec: groupSpec(3, 3) },
  rounds: 1,
  request: (_rng: unknown, i: number) => i % 2,
  maxSchedules: Number.POSITIVE_INFINITY,
  maxStates,
});

describe('exploration, surficial(3, 3), groups P0 → 0, P1 → 1, P2 → 0', () => {
  it('Maekawa_S: every schedule is safe and deadlock-free (exhaustive)', async () => {
    const r = await exploreSchedules(options('S'));
    report.push(line('Maekawa_S surficial(3,3)', r));
    expect(r.failures).toEqual([]);
    expect(r.exhaustive).toBe(true);
    expect(r.deduplicated).toBe(true);
    expect(r.states).toBe(825);
  });

  it('Maekawa_M: no failure within 2,000 states', async () => {
    const r = await exploreSchedules(options('M', 2000));
    report.push(line('Maekawa_M surficial(3,3), budget 2,000 states', r));
    expect(r.failures).toEqual([]);
    expect(r.deduplicated).toBe(true);
    expect(r.states).toBeGreaterThanOrEqual(2000);
  });
});
