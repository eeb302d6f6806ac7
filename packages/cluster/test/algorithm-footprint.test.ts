import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { COTERIE_NAMES, type CoterieName, coterieByName, maxQuorumSize } from '@critsec/coteries';
import { buildContext, resolveCluster } from '../src/algorithm-resolve.js';
import { BYTES_PER_MEMBERSHIP, BYTES_PER_PROCESS, checkFootprint } from '../src/algorithm-footprint.js';

const SIZES: Record<CoterieName, number[]> = {
  majority: [1, 2, 3, 4, 9, 10, 25, 64],
  grid: [1, 2, 3, 5, 7, 10, 16, 17, 24, 26, 50, 99, 100],
  wall: [1, 2, 3, 5, 8, 16, 25, 40, 64, 100],
  tree: [1, 3, 7, 15, 31, 63],
  'projective-plane': [7, 13, 21, 31, 57],
};

describe('maxQuorumSize: the closed form bounds the largest quorum of the built coterie, tight within one', () => {
  for (const name of COTERIE_NAMES) {
    it(name, () => {
      for (const n of SIZES[name]) {
        const coterie = coterieByName(name, n);
        const actual = Math.max(...Array.from({ length: n }, (_, i) => coterie.quorumOf(i).length));
        const bound = maxQuorumSize(name, n);
        expect({ n, holds: actual <= bound && bound <= actual + 1 }).toEqual({ n, holds: true });
        // from n = 16 on the closed form is exact
        if (n >= 16) expect({ n, bound }).toEqual({ n, bound: actual });
      }
    });
  }
});

describe('checkFootprint', () => {
  it('returns the estimate when it fits and refuses one byte more', () => {
    const memberships = 1_000;
    const bytes = 10 * BYTES_PER_PROCESS + memberships * BYTES_PER_MEMBERSHIP;
    expect(checkFootprint({ n: 10, memberships, what: 'x', heapLimitBytes: bytes })).toBe(bytes);
    expect(() => checkFootprint({ n: 10, memberships, what: 'x', heapLimitBytes: bytes - 1 })).toThrow(
      ConfigurationError,
    );
  });

  it('names n, the structure, the heap limit and both ways out', () => {
    expect(() =>
      checkFootprint({
        n: 40_000,
        memberships: 40_000 * 399,
        what: 'the grid coterie',
        heapLimitBytes: 2 ** 32,
      }),
    ).toThrow(
      /^--n 40000 with the grid coterie: 40,000 processes and about 15,960,000 quorum memberships need about 6\.9 GiB, more than this process's heap limit of 4\.0 GiB; give a smaller --n, or raise the limit with NODE_OPTIONS=--max-old-space-size=8783 /,
    );
  });
});

describe('coterieByName weighs the memory before building', () => {
  // every descriptor builds its coterie there, weighed by the run's build context: the refusal is written once
  it.each(['majority', 'grid', 'wall', 'projective-plane'] as const)(
    '%s over a million processes',
    (name) => {
      const weigh = buildContext().weigh;
      expect(() => coterieByName(name, 1_000_000, weigh)).toThrow(ConfigurationError);
      expect(() => coterieByName(name, 1_000_000, weigh)).toThrow(
        `--n 1000000 with the ${name} coterie: 1,000,000 processes and about `,
      );
    },
  );
});

describe('resolveCluster refuses an n beyond the heap before building anything', () => {
  // a million-process grid would take hours to validate and tens of GiB: the refusal is at once
  it.each([
    ['mutex', { coterie: 'grid' }, /the grid coterie/],
    ['gcs', { coterie: 'majority', l: 1, k: 3 }, /the majority coterie/],
    ['ricart-agrawala', {}, /Ricart–Agrawala/],
    ['group-mutex', { system: 'grid', m: 3 }, /the grid coterie/],
  ] as const)('%s', (algorithm, extra, what) => {
    expect(() => resolveCluster({ algorithm, n: 1_000_000, params: extra })).toThrow(ConfigurationError);
    expect(() => resolveCluster({ algorithm, n: 1_000_000, params: extra })).toThrow(what);
  });

  it('accepts what fits: n = 10,000 over the grid passes the check', () => {
    expect(
      checkFootprint({ n: 10_000, memberships: 10_000 * maxQuorumSize('grid', 10_000), what: 'g' }),
    ).toBe(10_000 * BYTES_PER_PROCESS + 10_000 * 199 * BYTES_PER_MEMBERSHIP);
  });
});
