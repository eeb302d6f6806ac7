import { describe, expect, it } from 'vitest';
import { expectExactlyOnce } from './restart-harness.js';

describe('ReliableLink restart and resume, long', () => {
  it('delivers exactly once, in order, across random crashes and restarts: 10⁴ seeds', () => {
    let crashes = 0;
    for (let seed = 1; seed <= 10_000; seed++) crashes += expectExactlyOnce(100_000 + seed, 40).crashes;
    expect(crashes).toBeGreaterThan(10_000);
  });
});
