/**
 * Fencing tokens and time-bounded grants of h-out-of-k (issue 28 §1–3): token order across
 * conflicting holders, a dead holder's units freed by the ttl (and not without it), the tenure's
 * deadline, the message cost, the options and the descriptor's parameters, and seeded runs with
 * crash-stop, pauses past the ttl and partitions — with the same runs caught at a store that
 * ignores tokens, and stuck without a ttl. Long run: `tenure.long.test.ts`.
 */
import {
  ConfigurationError,
  type CSFactory,
  hasTenure,
  hOutOfKSpec,
  TenureExpiredError,
} from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { type HOutOfKDurableState, hOutOfK, hOutOfKDescriptor } from '../src/index.js';
import { STRUCTURES, tenureBatch } from './tenure-run.js';

const [n, k] = [5, 2];
const arbiter = STRUCTURES.three;
const tokenOf = (cs: unknown) =>
  hasTenure(cs as never) ? (cs as { tenure(): { token: number } }).tenure().token : -1;

describe('fencing tokens (issue 28 §2)', () => {
  it('conflicting holders get strictly increasing tokens; two sharers (h + h ≤ k) may share one', async () => {
    const c = createCluster({ factory: hOutOfK({ k, arbiter, fencing: true }), spec: hOutOfKSpec(k, n) });
    const [p3, p4, p1] = [c.objects[3]!, c.objects[4]!, c.objects[1]!];
    const both = Promise.all([p3.entry(1), p4.entry(1)]);
    await c.net.run();
    await both;
    const shared = [tokenOf(p3), tokenOf(p4)];
    expect(shared).toEqual([1, 1]); // InCS together, no arbiter had seen a token: non-conflicting holders share
    await Promise.all([p3.exit(), p4.exit()]);
    const tokens: number[] = [];
    for (const [p, h] of [
      [p1, 2],
      [p3, 1],
      [p4, 2],
    ] as const) {
      const entered = p.entry(h);
      await c.net.run();
      await entered;
      tokens.push(tokenOf(p));
      await p.exit();
      await c.net.run();
    }
    expect(tokens).toEqual([2, 3, 4]); // each conflicts with the one before it
    await c.close();
  });

  it('hs is durable: a recovered arbiter reports the highest token it accepted', async () => {
    const c = createCluster({ factory: hOutOfK({ k, arbiter, fencing: true }), spec: hOutOfKSpec(k, n) });
    const p1 = c.objects[1]!;
    for (let r = 0; r < 3; r++) {
      const entered = p1.entry(2);
      await c.net.run();
      await entered;
      await p1.exit();
    }
    await c.net.run();
    const state = (c.objects[2] as unknown as { durableState(): HOutOfKDurableState }).durableState();
    expect(state.arbiter.hs).toBe(3); // P1's quorum for 2 units is {1, 2}
    await c.close();
    const plain = createCluster({ factory: hOutOfK({ k, arbiter }), spec: hOutOfKSpec(k, n) });
    const s = (plain.objects[2] as unknown as { durableState(): HOutOfKDurableState }).durableState();
    expect('hs' in s.arbiter).toBe(false); // the paper's state, unchanged
    await plain.close();
  });

  it('costs one round trip more: 5·|q| messages per uncontended entry instead of 3·|q|', async () => {
    const perEntry = async (fencing: boolean) => {
      const c = createCluster({
        factory: hOutOfK({ k: 2, arbiter: uniformHKArbiter(5, 2), fencing }),
        spec: hOutOfKSpec(2, 5),
      });
      for (let p = 0; p < 5; p++) {
        const entered = c.objects[p]!.entry(2);
        await c.net.run();
        await entered;
        await c.objects[p]!.exit();
        await c.net.run();
      }
      const { sent } = c.net.counters();
      await c.close();
      return sent / 5;
    };
    const q = uniformHKArbiter(5, 2).quorumOf(0, 2).length; // 3
    expect(await perEntry(false)).toBe(3 * q);
    expect(await perEntry(true)).toBe(5 * q);
  });
});

describe('time-bounded grants (issue 28 §1)', () => {
  it('a crash-stopped holder’s units come back after the ttl; without a ttl the next entry waits for ever', async () => {
    const run = async (ttl: boolean) => {
      const opts = ttl ? { k, arbiter, ttl: 12 } : { k, arbiter, fencing: true };
      const c = createCluster({ factory: hOutOfK(opts), spec: hOutOfKSpec(k, n), seed: 1 });
      const entered = c.objects[3]!.entry(2);
      await c.net.run({ until: 10 });
      await entered;
      c.net.crash(3);
      c.clocks.crashed(3);
      let at = -1;
      const waiting = c.objects[4]!.entry(2).then(() => {
        at = c.net.now;
      });
      waiting.catch(() => {}); // rejected by close() when it never entered
      await c.net.run({ until: 200, stopWhen: () => at >= 0 });
      await c.close().catch(() => {});
      return at;
    };
    const freed = await run(true);
    expect(freed).toBeGreaterThan(12); // no earlier than the ttl
    expect(freed).toBeLessThan(40);
    expect(await run(false)).toBe(-1);
  });

  it('the tenure: remaining() counts down to the deadline, then check() throws and the signal fires', async () => {
    const c = createCluster({
      factory: hOutOfK({ k, arbiter, ttl: 12, driftMargin: 1 }),
      spec: hOutOfKSpec(k, n),
      seed: 1,
    });
    c.monitor.change = () => null;
    const p = c.objects[3]!;
    const entered = p.entry(1);
    await c.net.run({ until: 10 });
    await entered;
    const t = hasTenure(p) ? p.tenure()! : undefined;
    expect(t).toBeDefined();
    expect(t!.remaining()).toBeGreaterThan(0);
    expect(t!.remaining()).toBeLessThanOrEqual(12 - 1);
    t!.check();
    await c.net.run({ until: 40 }); // renewals keep it alive
    expect(t!.remaining()).toBeGreaterThan(0);
    c.clocks.pause(3, 30); // paused past the ttl: no renewal, the arbiters reclaim the OKs
    await c.net.run({ until: 80 });
    expect(t!.remaining()).toBeLessThanOrEqual(0);
    expect(() => t!.check()).toThrow(TenureExpiredError);
    expect(t!.signal.aborted).toBe(true);
    await p.exit();
    expect(hasTenure(p) && p.tenure()).toBeUndefined();
    await c.close();
  });

  it('refuses a ttl without a clock, and bad ttl / margin values', () => {
    const ctx = { id: 0, n, endpoint: {} as never, initial: Array(n).fill('OutCS') };
    expect(() => hOutOfK({ k, arbiter, ttl: 5 })(ctx)).toThrow(/needs a clock/);
    for (const bad of [
      { ttl: 0 },
      { ttl: Number.NaN },
      { ttl: 5, driftMargin: 5 },
      { driftMargin: 1 },
      { ttl: 5, fencing: false },
    ])
      expect(() => hOutOfK({ k, arbiter, ...bad })).toThrow(ConfigurationError);
  });

  it('the descriptor builds it from --fencing, --ttl, --driftMargin and names them in its options', async () => {
    const ctx = { weigh: () => {}, readJson: () => null, isFile: () => false } as never;
    const built = hOutOfKDescriptor.build({ k: 2, ttl: '20', driftMargin: 1 }, 5, ctx);
    expect(built.options).toEqual({ k: 2, arbiter: 'uniform', h: 'random', ttl: 20, driftMargin: 1 });
    const c = createCluster({ factory: built.factory as CSFactory<number>, spec: hOutOfKSpec(2, 5) });
    const p = c.objects[0]!;
    const entered = p.entry(2).then(() => [c.net.now, hasTenure(p) ? p.tenure()!.remaining() : 0]);
    await c.net.run({ until: 10 });
    // unit delays: request at 0, OK back at 2, confirm sent at 2, confirmed back at 4: deadline 2 + 20 − 1
    expect(await entered).toEqual([4, 2 + 20 - 1 - 4]);
    await p.exit();
    await c.close();
    expect(hOutOfKDescriptor.build({ fencing: 'true' }, 5, ctx).options).toMatchObject({ fencing: 'true' });
    expect(() => hOutOfKDescriptor.build({ fencing: 'yes' }, 5, ctx)).toThrow(
      /--fencing must be true or false/,
    );
    expect(() => hOutOfKDescriptor.build({ ttl: -1 }, 5, ctx)).toThrow(ConfigurationError);
  });
});

describe('crash-stop, pauses past the ttl and partitions (issue 28 §3; long: tenure.long.test.ts)', () => {
  it('40 seeds over arbiters {0, 1, 2} with a crash-stopped P3 or P4, 40 over the uniform arbiter: 0 conflicts at a fencing store, 0 fencing violations, 0 stuck', async () => {
    for (const [structure, crash] of [
      ['three', true],
      ['uniform', false],
    ] as const) {
      const t = await tenureBatch(1, 40, { structure, crash });
      expect({
        structure,
        conflicts: t.conflicts,
        violations: t.violations,
        stuck: t.stuck,
        bad: t.bad,
      }).toEqual({
        structure,
        conflicts: 0,
        violations: 0,
        stuck: 0,
        bad: [],
      });
      expect(t.expired).toBeGreaterThan(0); // pauses did outlive grants
      expect(t.rejected).toBeGreaterThan(0); // and stale holders were refused
    }
  });

  it('the same seeds at a store that ignores tokens are caught (conflicting effects interleave); without a ttl processes are stuck', async () => {
    const unfenced = await tenureBatch(1, 40, { fencing: false });
    expect(unfenced.conflicts).toBeGreaterThan(0);
    const noTtl = await tenureBatch(1, 10, { ttl: false });
    expect(noTtl.stuck).toBeGreaterThan(0);
  });
});
