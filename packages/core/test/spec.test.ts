import { describe, expect, it } from 'vitest';
import {
  assertSafeConfiguration,
  type CSState,
  checkConfiguration,
  ConfigurationError,
  complementSpec,
  globalSpec,
  graphFromAdjacency,
  graphFromEdges,
  groupSpec,
  hOutOfKSpec,
  initialConfiguration,
  localSpec,
} from '../src/index.js';

const S = (s: string): CSState[] => [...s].map((c) => (c === '1' ? 'InCS' : 'OutCS'));

describe('global (l,k) spec', () => {
  it('validates 0 ≤ l < k ≤ n', () => {
    expect(globalSpec(0, 1, 1)).toMatchObject({ l: 0, k: 1, n: 1 });
    expect(() => globalSpec(2, 2, 5)).toThrow(ConfigurationError);
    expect(() => globalSpec(3, 2, 5)).toThrow(/0 ≤ l < k ≤ n/);
    expect(() => globalSpec(0, 6, 5)).toThrow(/k = 6/);
    expect(() => globalSpec(-1, 2, 5)).toThrow(ConfigurationError);
    expect(() => globalSpec(0.5, 2, 5)).toThrow(ConfigurationError);
    expect(() => globalSpec(0, 1, 0)).toThrow(/positive integer/);
  });

  it('checks l ≤ #InCS ≤ k', () => {
    const spec = globalSpec(1, 2, 4);
    expect(checkConfiguration(spec, S('1000'))).toBeNull();
    expect(checkConfiguration(spec, S('1100'))).toBeNull();
    expect(checkConfiguration(spec, S('0000'))?.message).toMatch(/fewer than l = 1/);
    expect(checkConfiguration(spec, S('1110'))?.message).toMatch(/more than k = 2/);
    expect(() => assertSafeConfiguration(spec, S('0000'))).toThrow(/unsafe for \(1,2\)-CS/);
  });

  it('complement maps (l,k) to (n-k, n-l) and is an involution', () => {
    const spec = globalSpec(2, 5, 12);
    expect(complementSpec(spec)).toMatchObject({ l: 7, k: 10, n: 12 });
    expect(complementSpec(complementSpec(spec))).toEqual(spec);
  });
});

describe('local spec', () => {
  const path = graphFromEdges(4, [
    [0, 1],
    [1, 2],
    [2, 3],
  ]);

  it('validates per-process bounds against |N_i| + 1', () => {
    expect(() => localSpec(path, [0, 0, 0, 0], [1, 1, 1, 1])).not.toThrow();
    expect(() => localSpec(path, [0, 0, 0, 0], [3, 1, 1, 1])).toThrow(/P0 needs .* \|N_i\|\+1 = 2/);
    expect(() => localSpec(path, [0, 0], [1, 1])).toThrow(/one l_i and one k_i per process/);
  });

  it('checks every closed neighbourhood', () => {
    const spec = localSpec(path, [0, 1, 0, 0], [2, 2, 2, 2]);
    expect(checkConfiguration(spec, S('0100'))).toBeNull();
    expect(checkConfiguration(spec, S('0001'))).toMatchObject({ at: 1 });
    expect(checkConfiguration(spec, S('1110'))).toMatchObject({
      at: 1,
      message: expect.stringMatching(/more than k_1/),
    });
  });

  it('complement follows the local complementary theorem', () => {
    const spec = localSpec(path, [0, 1, 0, 1], [1, 2, 3, 2]);
    const co = complementSpec(spec);
    expect(co.l).toEqual([1, 1, 0, 0]);
    expect(co.k).toEqual([2, 2, 3, 1]);
  });

  it('adjacency input must be symmetric and in range', () => {
    expect(graphFromAdjacency([[1], [0, 2], [1]]).neighbors).toEqual([[1], [0, 2], [1]]);
    expect(() => graphFromAdjacency([[1], [], []])).toThrow(/not symmetric/);
    expect(() => graphFromAdjacency([[0]])).toThrow(/contains 0 itself/);
    expect(() => graphFromAdjacency([[5], [0]])).toThrow(/expected ids 0..1/);
    expect(() => graphFromEdges(3, [[1, 1]])).toThrow(/self-loop/);
  });
});

describe('h-out-of-k and group specs', () => {
  it('h-out-of-k: units of processes InCS never exceed k', () => {
    const spec = hOutOfKSpec(4, 3);
    expect(checkConfiguration(spec, S('110'), [2, 2, 3])).toBeNull();
    expect(checkConfiguration(spec, S('111'), [2, 2, 1])?.message).toMatch(/5 units/);
    expect(checkConfiguration(spec, S('100'), [7])?.message).toMatch(/h = 7/);
    expect(() => hOutOfKSpec(0, 3)).toThrow(ConfigurationError);
    expect(() => complementSpec(spec)).toThrow(/no complement/);
  });

  it('group: different groups never share the CS', () => {
    const spec = groupSpec(3, 4);
    expect(checkConfiguration(spec, S('1101'), [1, 1, 0, 1])).toBeNull();
    expect(checkConfiguration(spec, S('1100'), [1, 2])?.message).toMatch(/P0 \(group 1\) and P1 \(group 2\)/);
  });
});

describe('initialConfiguration', () => {
  it('accepts states or a set of InCS ids, and refuses bad input', () => {
    expect(initialConfiguration(3, { inCS: [2] })).toEqual(S('001'));
    expect(initialConfiguration(2, ['InCS', 'OutCS'])).toEqual(S('10'));
    expect(() => initialConfiguration(2, { inCS: [2] })).toThrow(/expected 0..1/);
    expect(() => initialConfiguration(2, ['InCS'])).toThrow(/expected n = 2/);
    expect(() => initialConfiguration(1, ['Maybe' as CSState])).toThrow(/'InCS' or 'OutCS'/);
  });
});

describe('checking one half of a safety condition', () => {
  it('upper checks only the bounds one process too many breaks, lower only the others', () => {
    const g = globalSpec(1, 2, 4);
    expect(checkConfiguration(g, S('0000'), undefined, 'upper')).toBeNull();
    expect(checkConfiguration(g, S('0000'), undefined, 'lower')?.message).toMatch(/fewer than l = 1/);
    expect(checkConfiguration(g, S('1110'), undefined, 'lower')).toBeNull();
    expect(checkConfiguration(g, S('1110'), undefined, 'upper')?.message).toMatch(/more than k = 2/);

    const ring = graphFromEdges(4, [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 0],
    ]);
    const local = localSpec(ring, [1, 1, 1, 1], [2, 2, 2, 2]);
    expect(checkConfiguration(local, S('0000'), undefined, 'upper')).toBeNull();
    expect(checkConfiguration(local, S('0000'), undefined, 'lower')).toMatchObject({ at: 0 });
    expect(checkConfiguration(local, S('1110'), undefined, 'lower')).toBeNull();
    expect(checkConfiguration(local, S('1110'), undefined, 'upper')).toMatchObject({ at: 1 });

    const units = hOutOfKSpec(3, 3);
    expect(checkConfiguration(units, S('110'), [2, 2, 0], 'lower')).toBeNull();
    expect(checkConfiguration(units, S('110'), [2, 2, 0], 'upper')?.message).toMatch(/4 units/);
    const groups = groupSpec(2, 3);
    expect(checkConfiguration(groups, S('110'), [0, 1, 0], 'lower')).toBeNull();
    expect(checkConfiguration(groups, S('110'), [0, 1, 0], 'upper')?.message).toMatch(/together/);
    expect(checkConfiguration(groups, S('110'), [0, 1, 0])?.message).toMatch(/together/);
  });
});
