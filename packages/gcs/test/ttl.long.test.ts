/**
 * The time-bounded (1,3)-GCS over 10⁴ seeds (issue 28): crash-stop of P3 (InCS, OutCS or in the
 * middle of a call holding an inner mx), callers paused past the ttl, a seeded pause of anyone
 * and a partition per seed (`ttl-run.ts`); each live process makes ≥ 1 call, the live ones
 * calling until all have, so that the 10⁴ fit the CI budget. `CRITSEC_LONG=1 npx vitest run
 * test/ttl.long.test.ts` (measured figure in the README).
 */
import { describe, expect, it } from 'vitest';
import { ttlBatch } from './ttl-run.js';

describe('time-bounded grants of the (l,k)-GCS, long', () => {
  it('10,000 seeds: 0 violations of 1 ≤ #InCS ≤ 3, 0 stuck among the live processes, 0 errors', async () => {
    const t = await ttlBatch(1, 10_000, 1);
    console.log('gcs ttl long:', t);
    expect({ violations: t.violations, stuck: t.stuck, errors: t.errors, bad: t.bad }).toEqual({
      violations: 0,
      stuck: 0,
      errors: 0,
      bad: [],
    });
    expect(t.undone).toBeGreaterThan(0);
    expect(t.crashedBusy).toBeGreaterThan(0);
    expect(t.crashedInCS).toBeGreaterThan(0);
  });
});
