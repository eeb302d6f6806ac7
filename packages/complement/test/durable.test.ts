/**
 * Co-A of a durable A is durable (issue 27): the complement forwards `durableState()` and
 * `recover()` to the inner object and hands `ctx.recovered` to the inner factory, which checks it;
 * a non-durable A gives a non-durable Co-A. Co-(central mutex), the (n−1, n)-CS, under the
 * simulator's crashes and restarts: 0 violations, nobody stuck after the last restart.
 */
import { complementSpec, globalSpec, isDurableCSObject, mutexSpec } from '@critsec/core';
import { createCluster } from '@critsec/harness';
import { centralMutex, durableCentralMutex } from '@critsec/testing';
import { crashSweep } from '@critsec/testing/cs';
import { describe, expect, it } from 'vitest';
import { complement } from '../src/index.js';

describe('complement of a durable object', () => {
  it('forwards durableState(), recover() and ctx.recovered; a plain inner object stays plain', async () => {
    const c = createCluster({
      factory: complement(durableCentralMutex()),
      spec: complementSpec(mutexSpec(3)),
    });
    const cs = c.objects[1]!;
    expect(isDurableCSObject(cs)).toBe(true);
    const saved = JSON.parse(JSON.stringify((cs as never as { durableState(): unknown }).durableState()));
    const copy = complement(durableCentralMutex())({
      id: 1,
      n: 3,
      endpoint: createCluster({ factory: centralMutex(), spec: mutexSpec(3) }).net.endpoint(1),
      initial: ['InCS', 'InCS', 'InCS'],
      recovered: saved,
    });
    expect(copy.state).toBe(cs.state);
    expect((copy as never as { durableState(): unknown }).durableState()).toEqual(saved);
    const plain = createCluster({ factory: complement(centralMutex()), spec: complementSpec(mutexSpec(3)) });
    expect(isDurableCSObject(plain.objects[0]!)).toBe(false);
    await Promise.all([c.close(), plain.close(), copy.close()]);
  });

  it('Co-(central mutex) under crashes and restarts: 60 seeds, 0 violations, 0 stuck', async () => {
    const r = await crashSweep({
      factory: complement(durableCentralMutex()),
      spec: globalSpec(2, 3, 3),
      initial: ['InCS', 'InCS', 'InCS'],
      seeds: 60,
      crashes: { count: 3, loseUnsynced: true },
    });
    expect([r.violations, r.stuck, r.failures]).toEqual([0, 0, []]);
    expect(r.crashes).toBeGreaterThan(100);
  });
});
