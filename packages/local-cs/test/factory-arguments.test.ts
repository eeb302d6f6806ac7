/**
 * The factories' argument checks, before any process exists (README "Bad input"): a missing
 * options object is a `ConfigurationError` naming the factory, not a `TypeError`; LMUTEX's k_i
 * range is exactly 1 ≤ k_i ≤ |N_i| + 1, reported with LMUTIN's l_i = |N_i| + 1 − k_i, and a wrong
 * number of k values names `k`; an LKCS leader must be a process id.
 */
import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { complete, ring } from '../src/graphs.js';
import { lkcsPlan } from '../src/lkcs-plan.js';
import { lmutex } from '../src/lmutex.js';
import { lmutin } from '../src/lmutin.js';

describe('factory arguments', () => {
  it('no options at all: ConfigurationError naming the factory', () => {
    for (const [name, f] of [
      ['lmutin', () => lmutin(undefined as never)],
      ['lmutex', () => lmutex(undefined as never)],
    ] as const) {
      expect(f).toThrow(ConfigurationError);
      expect(f).toThrow(new RegExp(`^${name}\\(\\{ graph \\}\\): graph must be a Graph`));
    }
  });

  it('LMUTEX: k_i = |N_i| + 1 and k_i = 1 are accepted, |N_i| + 2 is refused with both values', () => {
    expect(() => lmutex({ graph: ring(4), k: 3 })).not.toThrow();
    expect(() => lmutex({ graph: ring(4), k: 1 })).not.toThrow();
    expect(() => lmutex({ graph: ring(4), k: 4 })).toThrow(
      "lmutex: P0 needs 1 ≤ k_i ≤ |N_i|+1 = 3, got k_0 = 4 (LMUTIN's l_0 = |N_i|+1−k_i = -1)",
    );
    expect(() => lmutex({ graph: ring(4), k: [1, 2] })).toThrow(
      /^k: expected 4 values \(one per process\), got 2$/,
    );
  });

  it('LKCS: a leader that is not a process id is refused', () => {
    for (const leader of [-1, 5, 1.5, Number.NaN]) {
      expect(() => lkcsPlan(complete(5), 0, 5, leader)).toThrow(
        `lkcs: leader must be a process id 0..4, got ${String(leader)}`,
      );
    }
    expect(lkcsPlan(complete(5), 0, 5, 4).leader).toBe(4);
  });
});
