import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import {
  createLockManager,
  LockManagerClosedError,
  LockNameError,
  LockOptionsError,
  MAX_LOCK_NAME_LENGTH,
} from '../src/index.js';
import { rejection, simLocks } from './sim.js';

describe('typed errors for bad input, before anything is sent', () => {
  it('refuses bad names, modes, timeouts, callbacks and option mixes', async () => {
    const { net, managers } = simLocks(3, 1, { shared: ['s'] });
    const m = managers[0]!;
    const cb = () => 1;
    const cases: [unknown, unknown, unknown, new (...a: never[]) => Error][] = [
      ['', cb, undefined, LockNameError],
      ['x'.repeat(MAX_LOCK_NAME_LENGTH + 1), cb, undefined, LockNameError],
      ['a/b', cb, undefined, LockNameError],
      [42, cb, undefined, LockNameError],
      ['a', { mode: 'read' }, cb, LockOptionsError],
      ['a', { mode: 'shared' }, cb, LockOptionsError], // 'a' is exclusive-only
      ['a', { timeout: -1 }, cb, LockOptionsError],
      ['a', { timeout: Number.POSITIVE_INFINITY }, cb, LockOptionsError],
      ['a', { timeout: Number.NaN }, cb, LockOptionsError],
      ['a', { ifAvailable: true, timeout: 5 }, cb, LockOptionsError],
      ['a', { ifAvailable: true, signal: new AbortController().signal }, cb, LockOptionsError],
      ['a', 'not a function', undefined, LockOptionsError],
      ['a', {}, 'not a function', LockOptionsError],
      ['a', null, undefined, LockOptionsError],
    ];
    for (const [name, a, b, type] of cases) {
      const err = await rejection(
        (m.request as (...args: unknown[]) => Promise<unknown>)(name, a, ...(b === undefined ? [] : [b])),
      );
      expect(err, JSON.stringify([name, a])).toBeInstanceOf(type);
    }
    expect(net.counters().sent).toBe(0);
    // the longest name is accepted, shared on a shared name too
    const ok = [m.request('y'.repeat(MAX_LOCK_NAME_LENGTH), cb), m.request('s', { mode: 'shared' }, cb)];
    await net.run();
    expect(await Promise.all(ok)).toEqual([1, 1]);
    await m.close();
    expect(await rejection(m.request('a', cb))).toBeInstanceOf(LockManagerClosedError);
  });

  it('close() while a callback runs: the callback finishes and its result is returned; waiting requests reject', async () => {
    const { net, managers } = simLocks(3, 2);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const holder = managers[0]!.request('a', async () => {
      await held;
      return 'done';
    });
    await net.run();
    const waiting = rejection(managers[0]!.request('a', () => 'never'));
    await managers[0]!.close();
    expect(await waiting).toBeInstanceOf(LockManagerClosedError);
    release();
    expect(await holder).toBe('done');
  });

  it('refuses bad manager options', () => {
    const net = new SimNetwork({ n: 3 });
    const endpoint = net.endpoint(0);
    const bad: Record<string, unknown>[] = [
      { endpoint, id: 0, n: 0 },
      { endpoint, id: 3, n: 3 },
      { endpoint, id: 1, n: 3 }, // not member 1's endpoint
      { endpoint: {}, id: 0, n: 3 },
      { endpoint, id: 0, n: 3, k: 3 },
      { endpoint, id: 0, n: 3, channel: 'a/b' },
      { endpoint, id: 0, n: 3, shared: 'db' },
      { endpoint, id: 0, n: 3, maxLiveNames: -1 },
    ];
    for (const o of bad) {
      expect(() => createLockManager(o as never), JSON.stringify(Object.keys(o))).toThrow(LockOptionsError);
    }
  });
});
