/**
 * Time-bounded, fenced Maekawa over 10⁴ seeds (issue 28 §4): holders paused past the ttl, seeded
 * pauses of anyone, a crash-stopped holder per seed. `CRITSEC_LONG=1 npx vitest run
 * test/tenure.long.test.ts` (measured figure in the README).
 */
import { describe, expect, it } from 'vitest';
import { tenureBatch } from './tenure-run.js';

describe('time-bounded grants, long', () => {
  it('10,000 seeds: 0 lost updates at a fencing store, 0 fencing violations, 0 stuck while a quorum is alive', async () => {
    const t = await tenureBatch(1, 10_000, 2);
    console.log('tenure long:', t);
    expect({ lost: t.lost, violations: t.violations, stuck: t.stuck, bad: t.bad }).toEqual({
      lost: 0,
      violations: 0,
      stuck: 0,
      bad: [],
    });
    expect(t.expired).toBeGreaterThan(0);
    expect(t.rejected).toBeGreaterThan(0);
    expect(t.crashed).toBe(10_000);
  });
});
