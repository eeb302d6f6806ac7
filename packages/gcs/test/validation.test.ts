import { ConfigurationError, CoterieError, type CSState } from '@critsec/core';
import { type Coterie, grid, majority } from '@critsec/coteries';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { gcs, kMutex } from '../src/index.js';

function make(factory: ReturnType<typeof gcs>, n: number, initial: readonly CSState[]): unknown {
  const net = new SimNetwork({ n });
  try {
    for (let id = 0; id < n; id++) factory({ id, n, endpoint: net.endpoint(id), initial });
    return null;
  } catch (err) {
    return err;
  } finally {
    expect(net.counters().sent).toBe(0);
  }
}

const states = (n: number, inCS: number): CSState[] =>
  Array.from({ length: n }, (_, i) => (i < inCS ? 'InCS' : 'OutCS'));

describe('gcs validates 0 ≤ l < k ≤ n and the initial configuration before any message', () => {
  it('l and k', () => {
    expect(() => gcs({ l: -1, k: 2, coterie: majority(3) })).toThrow(/0 ≤ l < k ≤ n.*l = -1, k = 2/);
    expect(() => gcs({ l: 2, k: 2, coterie: majority(3) })).toThrow(ConfigurationError);
    expect(() => gcs({ l: 3, k: 2, coterie: majority(3) })).toThrow(/l = 3, k = 2/);
    expect(() => gcs({ l: 0.5, k: 2, coterie: majority(3) })).toThrow(/integers/);
    for (const [l, k] of [
      ['0', 2],
      [0, '2'],
      [0, 2.5],
    ]) {
      expect(() => gcs({ l, k, coterie: majority(3) } as never)).toThrow(
        new ConfigurationError(`gcs: l and k must be integers, got l = ${l}, k = ${k}`),
      );
    }
    const err = make(gcs({ l: 1, k: 4, coterie: majority(3) }), 3, states(3, 1));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/k ≤ n = 3, got l = 1, k = 4/);
  });

  it('the initial configuration, naming the count', () => {
    const few = make(gcs({ l: 2, k: 3, coterie: majority(5) }), 5, states(5, 1));
    expect(few).toBeInstanceOf(ConfigurationError);
    expect((few as Error).message).toMatch(
      /unsafe for the \(2,3\)-CS: 1 process\(es\) InCS \(P0\), expected between l = 2 and k = 3/,
    );
    const many = make(gcs({ l: 0, k: 1, coterie: majority(5) }), 5, states(5, 2));
    expect(many).toBeInstanceOf(ConfigurationError);
    expect((many as Error).message).toBe(
      // gcs's own check, not kMutex's (which would also refuse)
      'gcs: the initial configuration is unsafe for the (0,1)-CS: 2 process(es) InCS (P0, P1), expected between l = 0 and k = 1',
    );
    expect(make(gcs({ l: 2, k: 3, coterie: majority(5) }), 5, states(5, 3))).toBeNull();
  });

  it('the coterie: same n, valid', () => {
    const err = make(gcs({ l: 1, k: 2, coterie: grid(9) }), 3, states(3, 1));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/coterie is over n = 9.*n = 3/);
    const q = [[0], [1], [2]];
    const disjoint = {
      n: 3,
      kind: 'bad',
      quorums: q,
      quorumOf: (i: number) => q[i]!,
      reportersOf: (i: number) => [i],
    } as unknown as Coterie;
    expect(make(gcs({ l: 1, k: 2, coterie: disjoint }), 3, states(3, 1))).toBeInstanceOf(CoterieError);
  });
});

describe('kMutex validates 1 ≤ k ≤ n and at most k InCS', () => {
  it('k', () => {
    expect(() => kMutex({ k: 0, coterie: majority(3) })).toThrow(/1 ≤ k ≤ n, got k = 0/);
    for (const k of [1.5, '2', Number.NaN, 2 ** 53]) {
      expect(() => kMutex({ k, coterie: majority(3) } as never)).toThrow(
        new ConfigurationError(`kMutex: k must be an integer with 1 ≤ k ≤ n, got k = ${String(k)}`),
      );
    }
    const err = make(kMutex({ k: 4, coterie: majority(3) }), 3, states(3, 0));
    expect((err as Error).message).toMatch(/1 ≤ k ≤ n = 3, got k = 4/);
  });

  it('initial configuration', () => {
    const err = make(kMutex({ k: 2, coterie: majority(5) }), 5, states(5, 3));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(
      /unsafe for 2-mutual exclusion: 3 process\(es\) InCS \(P0, P1, P2\), expected at most k = 2/,
    );
    expect(make(kMutex({ k: 5, coterie: majority(5) }), 5, states(5, 5))).toBeNull();
  });
});
