/**
 * Time-bounded, fenced Maekawa_M over 2,000 seeds (issue 28 §3): a crash-stopped process per
 * seed (a holder in its CS on odd seeds), holders paused past the ttl, seeded pauses of anyone,
 * two partitions that heal. `CRITSEC_LONG=1 npx vitest run test/fencing.long.test.ts` (measured
 * figure in the README).
 */
import { describe, expect, it } from 'vitest';
import { fencedBatch } from './fenced-seeds.js';

describe('time-bounded grants of Maekawa_M, long', () => {
  it('2,000 seeds: 0 interleaved effects at a fencing store, 0 fencing violations, 0 stuck while the quorum is alive', async () => {
    const t = await fencedBatch(1, 2_000);
    console.log('group-mutex fencing long:', t);
    expect({ interleavings: t.interleavings, violations: t.violations, stuck: t.stuck, bad: t.bad }).toEqual({
      interleavings: 0,
      violations: 0,
      stuck: 0,
      bad: [],
    });
    expect(t.expired).toBeGreaterThan(0);
    expect(t.rejected).toBeGreaterThan(0);
    expect(t.crashed).toBe(2_000);
  });
});
