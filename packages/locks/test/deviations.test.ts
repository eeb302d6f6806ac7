/**
 * The deviations from the Web Locks API that the README lists, pinned.
 */
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { createLockManager, type LockClock } from '../src/index.js';

function unitLocks(n: number, shared: string[] = []) {
  const net = new SimNetwork({ n, seed: 1 }); // unit delays: every message takes exactly 1
  const clock: LockClock = { now: () => net.now, setTimer: (d, fn) => net.schedule(d, fn) };
  const managers = Array.from({ length: n }, (_, id) =>
    createLockManager({ endpoint: net.endpoint(id), id, n, clock, shared }),
  );
  return { net, managers };
}

describe('deviations from the Web Locks API', () => {
  it('ifAvailable: two requests racing within the probe round trip both get the lock, one after the other (not null)', async () => {
    const { net, managers } = unitLocks(3);
    const log: string[] = [];
    const race = [1, 2].map((id) =>
      managers[id]!.request('a', { ifAvailable: true }, async (lock) => {
        log.push(`P${id}+${net.now}`);
        await net.sleep(5);
        log.push(`P${id}-${net.now}`);
        return lock?.name ?? null;
      }),
    );
    await net.run();
    expect(await Promise.all(race)).toEqual(['a', 'a']);
    // one after the other: the second waited for the first's critical section
    expect(log).toHaveLength(4);
    expect(log[1]!.replace(/\d+$/, '')).toBe(log[0]!.replace('+', '-').replace(/\d+$/, ''));
  });

  it("a member's own shared requests for one name run one after the other (the local line)", async () => {
    const { net, managers } = unitLocks(3, ['db']);
    let together = 0;
    let max = 0;
    const reads = [0, 1].map(() =>
      managers[0]!.request('db', { mode: 'shared' }, async () => {
        max = Math.max(max, ++together);
        await net.sleep(3);
        together--;
      }),
    );
    await net.run();
    await Promise.all(reads);
    expect(max).toBe(1);
  });
});
