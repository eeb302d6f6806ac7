/**
 * Time-bounded, fenced Maekawa_M with quorum reselection over 2,000 seeds (issue 28 §3–4): a
 * crash-stopped process per seed, **any** of the five — nodes included — (a holder in its CS on
 * odd seeds), holders paused past the ttl, seeded pauses of anyone, two partitions cutting a
 * random minority off that heal; the failure detector suspects after 2 time units and waiting
 * requests move off the suspected. `CRITSEC_LONG=1 npx vitest run test/fencing.long.test.ts`
 * (measured figure in the README).
 */
import { collectReached } from '@critsec/core/kit';
import { describe, expect, it } from 'vitest';
import { fencedBatch } from './fenced-seeds.js';

describe('time-bounded grants of Maekawa_M with quorum reselection, long', () => {
  it('2,000 seeds, any process crash-stopped: 0 interleaved effects at a fencing store, 0 fencing violations, 0 stuck while a quorum avoiding the crashed is alive', async () => {
    const reached = collectReached();
    const t = await fencedBatch(1, 2_000, { reselect: true });
    reached.stop();
    const reselected = reached.counts.get('group-mutex-m:reselected') ?? 0;
    console.log('group-mutex fencing long:', t, 'reselected:', reselected);
    expect({ interleavings: t.interleavings, violations: t.violations, stuck: t.stuck, bad: t.bad }).toEqual({
      interleavings: 0,
      violations: 0,
      stuck: 0,
      bad: [],
    });
    expect(t.expired).toBeGreaterThan(0);
    expect(t.rejected).toBeGreaterThan(0);
    expect(t.crashed).toBe(2_000);
    expect(reselected).toBeGreaterThan(0);
  });
});
