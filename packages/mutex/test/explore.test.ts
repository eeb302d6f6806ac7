/**
 * Exhaustive, state-deduplicated exploration in controlled mode (DESIGN.md 4): every
 * interleaving of message deliveries (the head of each FIFO link) and invocations, each process
 * doing one entry+exit round. States are deduplicated on every protocol variable (`inspect()`),
 * the monitor's configuration, the workload's progress and every queued message.
 *
 * - n = 3, Ricart–Agrawala: the whole space; Maekawa on grid(3): the first 2,000 distinct states
 *   (`npm test`);
 * - n = 3, Maekawa on grid(3) and majority(3): the whole space; n = 4 on the 2×2 grid within a
 *   capped budget: the long suite (`explore.long.test.ts`).
 */
import { mutexSpec } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { type ExploreResult, exploreSchedules } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { maekawa, ricartAgrawala } from '../src/index.js';

const report: string[] = [];
afterAll(() => console.info(report.join('\n')));

function line(label: string, r: ExploreResult): string {
  return `${label}: ${r.schedules} complete schedules, ${r.states} distinct states, max depth ${r.maxDepth}, exhaustive ${r.exhaustive}, failures ${r.failures.length}`;
}

describe('exhaustive exploration', () => {
  it('n = 3, Maekawa on grid(3): no failure within 2,000 distinct states (the whole space: long suite)', async () => {
    const r = await exploreSchedules({
      cluster: { factory: maekawa({ coterie: grid(3) }), spec: mutexSpec(3) },
      rounds: 1,
      maxSchedules: Number.POSITIVE_INFINITY,
      maxStates: 2_000,
    });
    expect(r.failures).toEqual([]);
    expect(r.states).toBeGreaterThanOrEqual(2_000);
    report.push(line('Maekawa grid(3), budgeted', r));
  });

  it('n = 3, Ricart–Agrawala: every schedule is safe and deadlock-free', async () => {
    const r = await exploreSchedules({
      cluster: { factory: ricartAgrawala(), spec: mutexSpec(3) },
      rounds: 1,
      maxSchedules: Number.POSITIVE_INFINITY,
    });
    expect(r.failures).toEqual([]);
    expect(r.exhaustive).toBe(true);
    report.push(line('Ricart–Agrawala n=3', r));
  });
});
