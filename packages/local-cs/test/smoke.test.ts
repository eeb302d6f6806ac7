import { createCluster, runWorkload } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { localBounds, safeInitial } from '../src/config.js';
import { grid, ring } from '../src/graphs.js';
import { lmutin } from '../src/lmutin.js';
import { unitDelay, exponentialDelay } from '@critsec/transport-sim';

describe('smoke', () => {
  it('lmutin ring', async () => {
    for (const [g, l] of [
      [ring(5), 1],
      [grid(3, 3), 2],
    ] as const) {
      const spec = localBounds(g, l, (_i, d) => d + 1);
      const initial = safeInitial(spec);
      let bad = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const c = createCluster({
          factory: lmutin({ graph: g, l }),
          spec,
          initial,
          seed,
          delay: seed % 2 ? unitDelay : exponentialDelay(1),
        });
        const r = await runWorkload(c, { rounds: 3 });
        if (!r.ok) {
          bad++;
          console.log(seed, r.failure, r.violation, r.stuck.length);
        }
      }
      expect(bad).toBe(0);
    }
  });
});
