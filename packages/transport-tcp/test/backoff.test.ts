import { createRng } from '@critsec/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Backoff } from '../src/backoff.js';

const delays = (b: Backoff, self: number, peer: number, n = 8): number[] => {
  const rng = b.linkRng(self, peer);
  return Array.from({ length: n }, (_, attempt) => b.delay(attempt, rng));
};

describe('Backoff (the dialer reconnect schedule)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('draws its jitter from the one PRNG, never Math.random: same seed and link, same delays', () => {
    const random = vi.spyOn(Math, 'random');
    const a = delays(new Backoff({ seed: 7 }), 0, 1);
    const b = delays(new Backoff({ seed: 7 }), 0, 1);
    expect(random).not.toHaveBeenCalled();
    expect(a).toEqual(b);
    // documented stream: createRng(seed).fork('reconnect <self>-><peer>')
    const rng = createRng(7).fork('reconnect 0->1');
    expect(a[0]).toBe(50 * (1 - 0.5 * rng.next()));
  });

  it('gives each peer link and each seed its own stream (no lockstep)', () => {
    const b = new Backoff();
    expect(delays(b, 0, 1)).not.toEqual(delays(b, 0, 2));
    expect(delays(b, 0, 2)).not.toEqual(delays(b, 1, 2));
    expect(delays(new Backoff({ seed: 1 }), 0, 1)).not.toEqual(delays(new Backoff({ seed: 2 }), 0, 1));
  });

  it('keeps every delay in [(1 − jitter)·d, d] with d = min(max, initial·factorᵃ)', () => {
    const b = new Backoff({ initialDelayMs: 10, maxDelayMs: 100, factor: 3, jitter: 0.25, seed: 3 });
    const got = delays(b, 2, 5, 200);
    got.forEach((delay, attempt) => {
      const d = Math.min(100, 10 * 3 ** attempt);
      expect(delay).toBeGreaterThan(0.75 * d - 1e-9);
      expect(delay).toBeLessThanOrEqual(d);
    });
  });

  it('throws ConfigurationError for a seed that is not a safe integer', () => {
    expect(() => new Backoff({ seed: 1.5 })).toThrow(/seed must be a safe integer, got 1.5/);
    expect(() => new Backoff({ seed: Number.NaN })).toThrow(/seed must be a safe integer/);
  });
});
