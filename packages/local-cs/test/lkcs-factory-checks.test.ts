/**
 * The LKCS factory's checks before any message (README "Bad input"): the cluster must have the
 * graph's n, and the initial configuration must keep the tightened bounds (L_i, K_i) of Algorithm
 * 3 — not only (l_i, k_i) — since the sidetrack's slack of one is only for a trigger. complete(5),
 * (l, k) = (0, 5): (L, K) = (1, 4) everywhere.
 */
import type { CSState } from '@critsec/core';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { complete } from '../src/graphs.js';
import { lkcs } from '../src/lkcs.js';

describe('lkcs factory', () => {
  const f = lkcs({ graph: complete(5), l: 0, k: 5 });

  it('refuses a cluster of another size, naming both', () => {
    const net = new SimNetwork({ n: 6 });
    expect(() => f({ id: 0, n: 6, endpoint: net.endpoint(0), initial: Array(6).fill('OutCS') })).toThrow(
      'lkcs: the graph has n = 5 processes but the cluster has n = 6',
    );
  });

  it('refuses an initial configuration that keeps (l, k) but not (L, K)', () => {
    const net = new SimNetwork({ n: 5 });
    const allIn: CSState[] = Array(5).fill('InCS'); // 5 InCS ≤ k = 5, but > K = 4
    expect(() => f({ id: 0, n: 5, endpoint: net.endpoint(0), initial: allIn })).toThrow(
      /^lkcs \(L_i, K_i\): unsafe initial configuration: /,
    );
    const allOut: CSState[] = Array(5).fill('OutCS'); // 0 InCS ≥ l = 0, but < L = 1
    expect(() => f({ id: 0, n: 5, endpoint: net.endpoint(0), initial: allOut })).toThrow(
      /^lkcs \(L_i, K_i\): unsafe initial configuration: /,
    );
    expect(net.counters().sent).toBe(0);
  });
});
