/**
 * Time-bounded grants of the (l,k)-GCS (issue 28): the seeded run of `ttl-run.ts` over a few dozen
 * seeds, the schedule that is stuck for good without a ttl, and the options' refusals. The 10⁴
 * seeds are in `ttl.long.test.ts`.
 */
import { ConfigurationError } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { gcs, kMutex } from '../src/index.js';
import { ttlBatch, ttlRun } from './ttl-run.js';

describe('(1,3)-GCS with a ttl under crash-stop, pauses past the ttl and partitions', () => {
  it('40 seeds × 2 calls per process: 0 violations, 0 stuck, 0 errors; undone calls and busy crashes happen', async () => {
    const t = await ttlBatch(1, 40, 2);
    expect({ violations: t.violations, stuck: t.stuck, errors: t.errors, bad: t.bad }).toEqual({
      violations: 0,
      stuck: 0,
      errors: 0,
      bad: [],
    });
    expect(t.undone).toBeGreaterThan(0); // grants expired under callers paused mid-call: undone, made again
    expect(t.crashedBusy).toBeGreaterThan(0); // P3 died in the middle of a call
  });

  it('seed 3: without a ttl P3 dies holding an inner mx and every other process waits forever; with one, nobody does', async () => {
    const paper = await ttlRun(3, 2, null);
    expect(paper.crashed).toMatchObject({ p: 3, busy: true });
    expect(paper.stuck).toEqual([0, 1, 2]);
    expect(paper.violations).toBe(0);
    const timed = await ttlRun(3, 2);
    expect(timed.stuck).toEqual([]);
    expect(timed.violations).toBe(0);
  });
});

describe('time-bound options', () => {
  const coterie = majority(3);
  it('apply to the default mx only, are checked by maekawa(), and need a clock', () => {
    expect(() => gcs({ l: 1, k: 2, coterie, ttl: 5, mx: maekawa({ coterie }) })).toThrow(ConfigurationError);
    expect(() => kMutex({ k: 2, coterie, fencing: true, mx: maekawa({ coterie }) })).toThrow(/default mx/);
    expect(() => gcs({ l: 1, k: 2, coterie, ttl: -1 })).toThrow(/ttl must be a finite number > 0/);
    expect(() => kMutex({ k: 2, coterie, ttl: 5, driftMargin: 5 })).toThrow(/driftMargin/);
    const net = new SimNetwork({ n: 3 });
    const ctx = { id: 0, n: 3, endpoint: net.endpoint(0), initial: ['InCS', 'OutCS', 'OutCS'] as const };
    expect(() => gcs({ l: 1, k: 2, coterie, ttl: 5 })(ctx)).toThrow(/needs a clock/);
  });
});
