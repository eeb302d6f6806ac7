/**
 * Issue 26 §4, in `npm test`: the new-user app (three OS processes, mutual TLS, a Maekawa lock
 * built after `ready()` around a shared counter, P0 closing first) completes in 2 of 2 runs. The
 * 20-run figure is `new-user-app.long.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { INCREMENTS, runNewUserApps } from './new-user-app.js';

describe('the new-user app of issue 26 (3 OS processes over mutual TLS)', () => {
  it('completes in 2 of 2 runs: the lock built after ready(), P0 closing first, the counter exact', async () => {
    const runs = await runNewUserApps(2);
    for (const r of runs) {
      expect(r.stalled, r.stderr.join('\n')).toBeUndefined();
      expect(r.exits).toEqual([0, 0, 0]);
      expect(r.increments).toEqual([...INCREMENTS]);
      expect(r.counter).toBe(450);
      expect(r.completed).toBe(true);
    }
  });
});
