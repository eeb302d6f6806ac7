/*
 * The factory's error messages and the coterie guard, pinned exactly (an operator reads them to
 * fix a configuration). Written against surviving mutants of `npm run test:mutation` (README,
 * "Tests"): the validation suite only matched fragments of them.
 */
import { ConfigurationError, CoterieError, type CSState } from '@critsec/core';
import { type Coterie, majority } from '@critsec/coteries';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { mutin } from '../src/index.js';

/** Calls the factory for process 0 and returns what it threw (null if nothing). */
function thrown(coterie: Coterie, l: number, initial: readonly CSState[], n = coterie.n): unknown {
  const net = new SimNetwork({ n });
  try {
    mutin({ l, coterie })({ id: 0, n, endpoint: net.endpoint(0), initial });
    return null;
  } catch (err) {
    return err;
  }
}

/** The one-quorum coterie {{P0}} over n processes (R_0 = everyone), with reportersOf(0) overridden. */
function singleton(n: number, reporters0: number[]): Coterie {
  return {
    n,
    quorumOf: () => [0],
    reportersOf: (i: number) => (i === 0 ? reporters0 : []),
  } as unknown as Coterie;
}

const upTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const states = (n: number, inCS: number): CSState[] => upTo(n).map((i) => (i < inCS ? 'InCS' : 'OutCS'));

describe('a coterie whose reportersOf disagrees with its quorums', () => {
  it('names both sets, the computed R_i in full up to 12 processes and cut with … beyond', () => {
    const twelve = thrown(singleton(12, []), 0, states(12, 1));
    expect(twelve).toBeInstanceOf(CoterieError);
    expect((twelve as Error).message).toBe(
      `mutin: coterie.reportersOf(0) = {} but the processes whose quorum contains P0 are R_0 = {${upTo(12).join(', ')}}`,
    );
    const thirteen = thrown(singleton(13, upTo(13).slice(1)), 0, states(13, 1));
    expect((thirteen as Error).message).toBe(
      `mutin: coterie.reportersOf(0) = {${upTo(13).slice(1).join(', ')}} but the processes whose quorum ` +
        `contains P0 are R_0 = {${upTo(12).join(', ')}, …}`,
    );
  });

  it('a reportersOf of the right length in another order is refused too, every time', () => {
    const bad = singleton(3, [2, 1, 0]);
    expect(thrown(bad, 0, states(3, 1))).toBeInstanceOf(CoterieError);
    const err = thrown(bad, 0, states(3, 1)); // the second time from the cache
    expect(err).toBeInstanceOf(CoterieError);
    expect((err as Error).message).toBe(
      'mutin: coterie.reportersOf(0) = {2, 1, 0} but the processes whose quorum contains P0 are R_0 = {0, 1, 2}',
    );
  });
});

describe('the initial configuration', () => {
  it('of the wrong length is refused', () => {
    const err = thrown(majority(3), 0, ['InCS', 'InCS']);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toBe('mutin: the initial configuration has 2 states, expected n = 3');
  });

  it('with fewer than l InCS names the count and up to 8 of the processes InCS', () => {
    const c = majority(12);
    expect((thrown(c, 1, states(12, 0)) as Error).message).toBe(
      'mutin: the initial configuration is unsafe for MUTIN(1): 0 process(es) InCS, expected at least l = 1',
    );
    expect((thrown(c, 9, states(12, 8)) as Error).message).toBe(
      'mutin: the initial configuration is unsafe for MUTIN(9): 8 process(es) InCS ' +
        '(P0, P1, P2, P3, P4, P5, P6, P7), expected at least l = 9',
    );
    expect((thrown(c, 10, states(12, 9)) as Error).message).toBe(
      'mutin: the initial configuration is unsafe for MUTIN(10): 9 process(es) InCS ' +
        '(P0, P1, P2, P3, P4, P5, P6, P7, …), expected at least l = 10',
    );
  });
});

describe('mutin() refuses a coterie that is not one, with its own message', () => {
  const message =
    'mutin: coterie must be a Coterie (n, quorumOf(i), reportersOf(i)), e.g. grid(n) from @critsec/coteries';
  const quorumOf = () => [0];
  const reportersOf = () => [0];
  const notCoteries: [string, unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['a number', 3],
    ['a string n', { n: '3', quorumOf, reportersOf }],
    ['no n', { quorumOf, reportersOf }],
    ['no quorumOf', { n: 3, reportersOf }],
    ['no reportersOf', { n: 3, quorumOf }],
    ['a quorumOf that is no function', { n: 3, quorumOf: [[0]], reportersOf }],
  ];
  for (const [what, coterie] of notCoteries) {
    it(what, () => {
      expect(() => mutin({ l: 0, coterie: coterie as Coterie })).toThrow(new ConfigurationError(message));
    });
  }
});
