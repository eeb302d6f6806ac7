import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { resolveCluster } from '../src/index.js';

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigurationError);
    const m = (err as Error).message;
    expect(m).not.toContain('\n');
    return m;
  }
  throw new Error('expected a ConfigurationError');
}

describe('resolveCluster', () => {
  it('gives the documented defaults: n = 25, l = 3, k = 10, grid, maekawa, the first l InCS', () => {
    const c = resolveCluster({ algorithm: 'gcs' });
    expect([c.n, c.l, c.k, c.coterieName, c.mx]).toEqual([25, 3, 10, 'grid', 'maekawa']);
    expect(c.quorumSize).toEqual({ min: 9, max: 9 });
    expect(c.initial.filter((s) => s === 'InCS')).toHaveLength(3);
    expect(c.initial.slice(0, 3)).toEqual(['InCS', 'InCS', 'InCS']);
    expect(c.initialDescription).toContain('P0–P2 InCS');
    expect(c.spec).toMatchObject({ kind: 'global', l: 3, k: 10, n: 25 });
  });

  it('caps the default l and k to fit a small n', () => {
    const c = resolveCluster({ algorithm: 'gcs', n: 4 });
    expect([c.l, c.k]).toEqual([3, 4]);
    const d = resolveCluster({ algorithm: 'gcs', n: 1 });
    expect([d.l, d.k]).toEqual([0, 1]);
    expect(resolveCluster({ algorithm: 'mutin', n: 2 }).l).toBe(1);
  });

  it('fixes l and k by the problem each algorithm solves', () => {
    expect(resolveCluster({ algorithm: 'mutex' })).toMatchObject({ l: 0, k: 1, mx: null });
    expect(resolveCluster({ algorithm: 'ricart-agrawala' })).toMatchObject({
      l: 0,
      k: 1,
      coterieDescription: null,
      coterieName: null,
      quorumSize: null,
    });
    expect(resolveCluster({ algorithm: 'mutin', params: { l: 5 } })).toMatchObject({ l: 5, k: 25 });
    expect(resolveCluster({ algorithm: 'kmutex', params: { k: 4 } })).toMatchObject({ l: 0, k: 4 });
    expect(message(() => resolveCluster({ algorithm: 'kmutex', params: { l: 2 } }))).toBe(
      'kmutex solves k-mutual exclusion, the (0,k)-CS, so --l must be 0 (or left out), got 2',
    );
    expect(message(() => resolveCluster({ algorithm: 'mutex', params: { k: 3 } }))).toBe(
      "mutex takes no parameter 'k'; it takes coterie, init, fencing, ttl, driftMargin, reselect",
    );
    expect(message(() => resolveCluster({ algorithm: 'mutin', params: { k: 3 } }))).toContain(
      '--k must be 25',
    );
  });

  it('rejects l ≥ k, k > n and n < 1 with what is accepted', () => {
    expect(message(() => resolveCluster({ algorithm: 'gcs', params: { l: '5', k: '5' } }))).toBe(
      '--l must be smaller than --k: the (l,k)-CS needs 0 ≤ l < k ≤ n; got l = 5, k = 5 (n = 25)',
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', params: { l: 7, k: 3 } }))).toContain(
      'l = 7, k = 3',
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', params: { k: 30 } }))).toContain(
      '--k must be at most --n',
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', n: '0' }))).toBe(
      "--n must be an integer ≥ 1, got '0'",
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', n: '-3' }))).toContain('≥ 1');
    expect(message(() => resolveCluster({ algorithm: 'gcs', n: '2.5' }))).toContain("got '2.5'");
    expect(message(() => resolveCluster({ algorithm: 'mutin', n: 3, params: { l: 3 } }))).toContain(
      '--l must be smaller than --k',
    );
  });

  it('rejects unknown algorithms, coteries and mx, listing the accepted ones', () => {
    expect(message(() => resolveCluster({ algorithm: 'paxos' }))).toBe(
      "unknown algorithm 'paxos'; accepted: mutex, ricart-agrawala, mutin, kmutex, gcs, h-out-of-k, group-mutex, local-cs",
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', params: { coterie: 'hex' } }))).toBe(
      "unknown coterie 'hex'; accepted: majority, grid, projective-plane, tree, wall",
    );
    expect(message(() => resolveCluster({ algorithm: 'gcs', params: { mx: 'lamport' } }))).toBe(
      "unknown mx 'lamport'; accepted: maekawa, ricart-agrawala",
    );
  });

  it('rejects a projective plane of non-prime-power order and sizes that are not q²+q+1', () => {
    expect(
      message(() => resolveCluster({ algorithm: 'mutex', n: 43, params: { coterie: 'projective-plane' } })),
    ).toContain('q = 6, which is not a prime power');
    expect(
      message(() => resolveCluster({ algorithm: 'mutex', n: 25, params: { coterie: 'projective-plane' } })),
    ).toContain('n = 25 is not of that form (nearest: 21 or 31)');
    const ok = resolveCluster({ algorithm: 'mutex', n: 31, params: { coterie: 'projective-plane' } });
    expect(ok.quorumSize).toEqual({ min: 6, max: 6 });
  });

  it('rejects tree sizes that are not 2^h − 1', () => {
    expect(
      message(() => resolveCluster({ algorithm: 'mutex', n: 20, params: { coterie: 'tree' } })),
    ).toContain('nearest: 15 or 31');
    expect(resolveCluster({ algorithm: 'mutex', n: 15, params: { coterie: 'tree' } }).quorumSize).toEqual({
      min: 4,
      max: 4,
    });
  });

  it('checks the initial configuration is safe, naming a safe one', () => {
    expect(message(() => resolveCluster({ algorithm: 'gcs', params: { init: 'none' } }))).toBe(
      '--init none: 0 process(es) InCS is not a safe initial configuration for the (3,10)-CS over 25 processes; it needs between 3 and 10 InCS (e.g. --init first:3)',
    );
    expect(message(() => resolveCluster({ algorithm: 'mutex', params: { init: '0,1' } }))).toContain(
      'between 0 and 1',
    );
    const c = resolveCluster({ algorithm: 'gcs', params: { init: '4,9,11,20' } });
    expect(c.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []))).toEqual([4, 9, 11, 20]);
    expect(c.initialDescription).toBe('P4, P9, P11, P20 InCS, the rest OutCS');
  });
});

describe("the descriptors' paper bounds", () => {
  const bounds = (algorithm: string, params: Record<string, string | number> = {}) =>
    resolveCluster({ algorithm, n: 25, params }).bounds;
  it('are the papers’ formulas (grid(25): |Q| = 9)', () => {
    expect(bounds('mutex', { coterie: 'grid' })).toMatchObject({
      messagesPerPair: 27,
      waitingTimeEntry: 2,
      waitingTimeExit: 0,
    });
    expect(bounds('ricart-agrawala')).toMatchObject({
      messagesPerPair: 48,
      waitingTimeEntry: 2,
      waitingTimeExit: 0,
    });
    expect(bounds('mutin', { coterie: 'grid' })).toMatchObject({
      messagesPerPair: 81,
      waitingTimeEntry: 2,
      waitingTimeExit: 7,
    });
    expect(bounds('mutin', { coterie: 'grid', mx: 'ricart-agrawala' }).messagesPerPair).toBe(48 + 54);
    expect(bounds('kmutex', { coterie: 'grid' })).toMatchObject({
      messagesPerPair: 81,
      waitingTimeEntry: 7,
      waitingTimeExit: 2,
    });
    const g = bounds('gcs', { coterie: 'grid' });
    expect(g).toMatchObject({ messagesPerPair: 162, waitingTimeEntry: 9, waitingTimeExit: 9 });
    expect(g.source).toContain('Theorem 4');
  });
});
