import { describe, expect, it } from 'vitest';
import { crashAtEveryWrite, recoverFromEveryPrefix } from './crash-run.js';

describe('memoryStore under crashes (a recorded run)', () => {
  it('crashing at every write of the run, recovery sees exactly the committed prefix', async () => {
    const writes = await crashAtEveryWrite(1, 40);
    expect(writes).toBeGreaterThan(100);
  });

  it('recovers from every prefix of the run, a torn last transaction invisible, and carries on', async () => {
    await recoverFromEveryPrefix(2, 40);
  });
});
