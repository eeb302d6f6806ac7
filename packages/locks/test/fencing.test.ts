import { describe, expect, it } from 'vitest';
import { simLocks } from './sim.js';

/** Every member takes `name` `rounds` times; returns the tokens in the order the holders got them. */
async function tokensOf(options: Parameters<typeof simLocks>[2], rounds: number) {
  const { net, managers } = simLocks(5, 3, options);
  const seen: { name: string; token: number | undefined; at: number }[] = [];
  const runs = managers.flatMap((m) =>
    Array.from({ length: rounds }, async () => {
      for (const name of ['a', 'b']) {
        await m.request(name, async (lock) => {
          seen.push({ name, token: lock.token, at: net.now });
          await net.sleep(2);
        });
      }
    }),
  );
  await net.run();
  await Promise.all(runs);
  return seen;
}

describe('fencing tokens and time-bounded grants through the manager (issue 28 over issue 29)', () => {
  it('fencing: each name’s tokens strictly increase across successive holders; names are independent', async () => {
    const seen = await tokensOf({ fencing: true }, 2);
    for (const name of ['a', 'b']) {
      const tokens = seen.filter((s) => s.name === name).map((s) => s.token);
      expect(tokens).toHaveLength(10);
      expect(tokens.every((t) => typeof t === 'number')).toBe(true);
      for (let i = 1; i < tokens.length; i++) expect(tokens[i]!).toBeGreaterThan(tokens[i - 1]!);
    }
  });

  it('without fencing a lock carries no token', async () => {
    const seen = await tokensOf({}, 1);
    expect(seen).toHaveLength(10);
    expect(seen.every((s) => s.token === undefined)).toBe(true);
  });

  it('ttl: the holder sees its tenure (token, remaining() > 0, signal not aborted) while it renews', async () => {
    const { net, managers } = simLocks(3, 5, { ttl: 30 });
    const views: { token: number | undefined; remaining: number; aborted: boolean }[] = [];
    const held = managers[1]!.request('a', async (lock) => {
      await net.sleep(100); // longer than the ttl: the renewals keep the grant
      views.push({ token: lock.token, remaining: lock.remaining(), aborted: lock.signal.aborted });
    });
    await net.run();
    await held;
    expect(views).toHaveLength(1);
    expect(typeof views[0]!.token).toBe('number');
    expect(views[0]!.remaining).toBeGreaterThan(0);
    expect(views[0]!.aborted).toBe(false);
  });

  it('shared names (h-out-of-k): tokens increase across conflicting holders (exclusive against any other), sharers may share', async () => {
    const { net, managers } = simLocks(5, 4, { shared: ['db'], k: 2, fencing: true });
    const seen: { mode: string; token: number | undefined; from: number; to: number }[] = [];
    const runs = managers.flatMap((m, id) =>
      Array.from({ length: 2 }, async (_, r) => {
        const mode = (id + r) % 3 === 0 ? 'exclusive' : 'shared';
        await m.request('db', { mode }, async (lock) => {
          const from = net.now;
          await net.sleep(2);
          seen.push({ mode, token: lock.token, from, to: net.now });
        });
      }),
    );
    await net.run();
    await Promise.all(runs);
    expect(seen).toHaveLength(10);
    expect(seen.every((s) => typeof s.token === 'number')).toBe(true);
    let pairs = 0;
    for (const a of seen)
      for (const b of seen) {
        if (a === b || (a.mode === 'shared' && b.mode === 'shared') || a.from >= b.from) continue;
        pairs++;
        expect(b.token!).toBeGreaterThan(a.token!); // b started later and conflicts with a
      }
    expect(pairs).toBeGreaterThan(0);
  });

  it('shared names with a ttl: a crashed exclusive holder’s units come back, the next holder gets a larger token', async () => {
    const { net, managers } = simLocks(5, 4, { shared: ['db'], k: 2, ttl: 20 });
    const tokens: (number | undefined)[] = [];
    void managers[3]!.request('db', { mode: 'exclusive' }, async (lock) => {
      tokens.push(lock.token);
      net.crash(3); // the holder dies holding both units
      await new Promise(() => {});
    });
    await net.run({ until: 15 });
    const next = managers[4]!.request('db', { mode: 'shared' }, async (lock) => {
      tokens.push(lock.token);
    });
    await net.run({ until: 500, stopWhen: () => tokens.length === 2 });
    expect(tokens).toHaveLength(2); // without the ttl the shared request waits for ever
    await next;
    expect(tokens[1]!).toBeGreaterThan(tokens[0]!);
  });

  it('refuses a ttl or driftMargin that is not a finite number ≥ 0, and a fencing that is not a boolean', () => {
    expect(() => simLocks(3, 1, { ttl: -1 })).toThrow(/ttl must be a finite number ≥ 0/);
    expect(() => simLocks(3, 1, { driftMargin: Number.NaN })).toThrow(/driftMargin must be/);
    expect(() => simLocks(3, 1, { fencing: 'yes' as unknown as boolean })).toThrow(
      /fencing must be a boolean/,
    );
  });
});
