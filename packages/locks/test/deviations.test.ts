/**
 * The deviations from the Web Locks API that the README lists, pinned.
 */
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import type { ProtocolClock } from '@critsec/core';
import { createLockManager } from '../src/index.js';

function unitLocks(n: number, shared: string[] = []) {
  const net = new SimNetwork({ n, seed: 1 }); // unit delays: every message takes exactly 1
  const clock: ProtocolClock = { now: () => net.now, setTimer: (d, fn) => net.schedule(d, fn) };
  const managers = Array.from({ length: n }, (_, id) =>
    createLockManager({ endpoint: net.endpoint(id), id, n, clock, shared }),
  );
  return { net, managers };
}

describe('deviations from the Web Locks API', () => {
  it('ifAvailable racing another ifAvailable within the probe round trip: the lower priority gets FAILED and null', async () => {
    const { net, managers } = unitLocks(3);
    const race = [1, 2].map((id) =>
      managers[id]!.request('a', { ifAvailable: true }, async (lock) => {
        await net.sleep(5);
        return lock?.name ?? null;
      }),
    );
    await net.run();
    // equal timestamps, P1 beats P2: P2's request is answered FAILED by an arbiter and withdrawn
    expect(await Promise.all(race)).toEqual(['a', null]);
    const q = managers[0]!.query();
    await net.run();
    expect(await q).toEqual({ held: [], pending: [], unreachable: [] });
  });

  it('ifAvailable that is the highest request, queued behind a racer already InCS, waits for its CS and gets the lock (not null: the deviation)', async () => {
    const { net, managers } = unitLocks(3);
    const log: string[] = [];
    // majority(3): Q_0 = {0, 1}, Q_1 = {1, 2}. P0 probes first (t = 0 → answers at t = 2, all
    // free); P1 asks normally at t = 0 and is InCS at t = 2; P0 (not in Q_1: its clock did not
    // move) sends REQUEST with the same timestamp 1 and the smaller id: the highest at arbiter 1,
    // so no FAILED — it waits for P1's exit
    const tried = managers[0]!.request('a', { ifAvailable: true }, (lock) => {
      log.push(`P0 @${net.now}`);
      return lock?.name ?? null;
    });
    const racer = managers[1]!.request('a', async () => {
      log.push(`P1 @${net.now}`);
      await net.sleep(10);
    });
    await net.run();
    await racer;
    expect(await tried).toBe('a');
    expect(log).toEqual(['P1 @2', expect.stringMatching(/^P0 @1[2-9]$/)]);
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
