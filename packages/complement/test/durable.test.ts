/**
 * Crash recovery through the complement (issue 27): Co-A of a durable A is durable — its durable
 * state is A's, a recovered state reaches A's factory, `recover()` is A's seen with the states
 * swapped — and Co-A of a non-durable A is not. Over `durableCentralMutex` (the test kit's
 * durable reference object): the crash suite of Co-(central mutex), the (n−1, n)-CS.
 */
import {
  ConfigurationError,
  type CSFactory,
  type CSState,
  complementSpec,
  isDurableCSObject,
  mutexSpec,
} from '@critsec/core';
import { centralMutex, durableCentralMutex } from '@critsec/testing';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { type ComplementObject, complement } from '../src/index.js';

const n = 3;
const initial: CSState[] = ['InCS', 'InCS', 'InCS']; // Co-A's: A starts every process OutCS

function ctx(id: number, net = new SimNetwork({ n, seed: 1 })) {
  return { id, n, endpoint: net.endpoint(id), initial };
}

describe('the complement of a durable object is durable', () => {
  it('durableState() is the inner object’s; recover() is its recover()', async () => {
    const co = complement(durableCentralMutex())(ctx(1)) as ComplementObject;
    expect(isDurableCSObject(co)).toBe(true);
    expect(isDurableCSObject(co.inner)).toBe(true);
    expect(co.durableState!()).toEqual((co.inner as unknown as { durableState(): unknown }).durableState());
    await co.recover!(); // fresh: at once
    expect(co.state).toBe('InCS');
    await co.close();
  });

  it('a recovered state reaches the inner factory; the object resumes in it, states swapped', async () => {
    const net = new SimNetwork({ n, seed: 1 });
    const p0 = complement(durableCentralMutex())(ctx(0, net)) as ComplementObject;
    const p1 = complement(durableCentralMutex())(ctx(1, net)) as ComplementObject;
    const entered = p1.entry(); // Co-A's entry = A's exit... A is OutCS: Co-A InCS → exit first
    await expect(entered).rejects.toThrow(); // CSMIC: Co-A is InCS
    const left = p1.exit(); // = A.entry(): P1 asks the coordinator
    await net.run();
    await left;
    expect(p1.state).toBe('OutCS');
    const saved = JSON.parse(JSON.stringify(p1.durableState!()));
    await p1.close();
    const again = complement(durableCentralMutex())({ ...ctx(1, net), recovered: saved }) as ComplementObject;
    expect(again.state).toBe('OutCS'); // A InCS, resumed
    expect(again.inner.state).toBe('InCS');
    const flips: string[] = [];
    again.on('statechange', (s) => flips.push(s));
    await again.recover!(); // A leaves its CS (its recovery): Co-A is InCS again
    await net.run();
    expect(again.state).toBe('InCS');
    expect(flips).toEqual(['InCS']);
    await again.close();
    await p0.close();
  });

  it('the recovered state is handed to the inner factory as it is; what A refuses is refused', () => {
    const seen: unknown[] = [];
    const refusing: CSFactory = (c) => {
      seen.push(c.recovered);
      throw new ConfigurationError('inner: not my state');
    };
    expect(() => complement(refusing)({ ...ctx(1), recovered: { s: 'Nowhere' } })).toThrow(
      'inner: not my state',
    );
    expect(seen).toEqual([{ s: 'Nowhere' }]);
  });
});

describe('the complement of an object that is not durable is not durable', () => {
  it('no durableState() nor recover()', async () => {
    const co = complement(centralMutex())(ctx(1));
    expect(isDurableCSObject(co)).toBe(false);
    await co.close();
  });

  it('a recovered state is refused (the inner factory ignores it)', () => {
    expect(() => complement(centralMutex())({ ...ctx(1), recovered: { anything: 1 } })).toThrow(
      /the inner object is not durable/,
    );
  });
});

// Crashes and restarts in the simulator (the durable layer of @critsec/harness): Co-(central
// mutex) solves the (n−1, n)-CS; 0 violations, nobody stuck after the last restart.
describe('crash recovery in the simulator', () => {
  crashRecoverySuite({
    it,
    name: 'Co-(durable central mutex), n = 4',
    factory: complement(durableCentralMutex()),
    spec: complementSpec(mutexSpec(4)),
    seeds: 100,
  });
});
