/**
 * Time-bounded grants of the (l,k)-GCS (issue 28): the seeded run of `ttl-run.ts` over a few dozen
 * seeds, the schedule that is stuck for good without a ttl, and the options' refusals. The 10⁴
 * seeds are in `ttl.long.test.ts`.
 */
import { ConfigurationError, type CSFactory, type CSState, globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { maekawa } from '@critsec/mutex';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { gcs, gcsDescriptor, kMutex, kMutexDescriptor } from '../src/index.js';
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

describe('the descriptors’ ttl, driftMargin and fencing (critsec simulate gcs --ttl 12)', () => {
  const ctx = { weigh: () => {}, readJson: () => null, isFile: () => false } as never;

  it('build the time-bounded composite and name the parameters in its options', async () => {
    const built = gcsDescriptor.build({ l: 1, k: 3, coterie: 'majority', ttl: '12', driftMargin: 1 }, 4, ctx);
    expect(built.options).toEqual({ l: 1, k: 3, coterie: 'majority', ttl: 12, driftMargin: 1 });
    const initial: CSState[] = ['InCS', 'OutCS', 'OutCS', 'OutCS'];
    const c = createCluster({
      factory: built.factory as CSFactory,
      spec: globalSpec(1, 3, 4),
      initial,
      seed: 7,
    });
    const lmin = (c.objects[0] as unknown as { a: { mxTenure: boolean } }).a;
    expect(lmin.mxTenure).toBe(true); // the MUTINs were told their mx is time-bounded
    const r = await runWorkload(c, { rounds: 2 });
    expect(r.ok).toBe(true);
    await c.close();
    expect(kMutexDescriptor.build({ k: 2, fencing: 'true' }, 4, ctx).options).toMatchObject({
      k: 2,
      fencing: 'true',
    });
    expect(gcsDescriptor.build({ l: 1, k: 3 }, 4, ctx).options).toEqual({ l: 1, k: 3, coterie: 'grid' });
  });

  it('refuse a bad value, and time bounds on an mx other than Maekawa', () => {
    expect(() => gcsDescriptor.build({ l: 1, k: 3, fencing: 'yes' }, 4, ctx)).toThrow(
      /--fencing must be true or false/,
    );
    expect(() => gcsDescriptor.build({ l: 1, k: 3, ttl: -1 }, 4, ctx)).toThrow(ConfigurationError);
    expect(() => kMutexDescriptor.build({ k: 2, ttl: 5, mx: 'ricart-agrawala' }, 4, ctx)).toThrow(
      /mx = maekawa only/,
    );
  });
});
