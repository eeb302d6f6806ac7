import { describe, expect, it } from 'vitest';
import { crashAtEveryWrite, recoverFromEveryPrefix } from './crash-run.js';

describe('memoryStore under crashes (long: many recorded runs)', () => {
  it('crash at every write, 200 seeds × 60 steps', async () => {
    let points = 0;
    for (let seed = 1; seed <= 200; seed++) points += await crashAtEveryWrite(seed, 60);
    expect(points).toBeGreaterThan(200 * 150);
  });

  it('recover from every prefix, 200 seeds × 60 steps', async () => {
    for (let seed = 1; seed <= 200; seed++) await recoverFromEveryPrefix(seed, 60);
  });
});
