import { describe, expect, it } from 'vitest';
import { killDuringCommits } from './kill-run.js';

describe('lmdbStore under SIGKILL (long)', () => {
  it('100 kills in the middle of commits, 4 runs: always a committed prefix, never corrupt', async () => {
    for (let seed = 1; seed <= 4; seed++) expect(await killDuringCommits(seed, 2000, 25)).toBe(25);
  });
});
