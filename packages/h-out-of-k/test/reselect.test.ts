/**
 * Quorum reselection of h-out-of-k (issue 28 §4; S1–S5 of `src/reselect.ts`), short version (the
 * long one: `tenure.long.test.ts`): message by message, a suspected arbiter moves the attempt to a
 * quorum avoiding it — the old attempt withdrawn with `release`, its late replies counting for
 * nothing, the priority kept, the token confirmed with the new quorum —; seeded runs with an arbiter
 * crash-stopped, pauses past the ttl and partitions finish with 0 conflicts, 0 fencing violations
 * and 0 stuck, and leave processes stuck without reselection; the availability the simulator
 * measures is the one `@critsec/coteries` computes; the refusals and the descriptor's parameter.
 */
import {
  ConfigurationError,
  type CSState,
  type DurableCSObject,
  hasTenure,
  hOutOfKSpec,
  type Message,
  type ProcessId,
  type ProtocolClock,
  type Suspicions,
} from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { availability, reselectionAvailability, uniformHKArbiter } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { type HOutOfKSnapshot, hOutOfK, hOutOfKDescriptor } from '../src/index.js';
import { fixedArbiter } from './helpers.js';
import { tenureBatch } from './tenure-run.js';

const [n, k] = [5, 2];
const uniform = uniformHKArbiter(n, k);

/** Suspicions a test sets by hand. */
function handSuspicions(): Suspicions & { set(s: readonly ProcessId[]): void } {
  let suspected: ReadonlySet<ProcessId> = new Set();
  const listeners = new Set<() => void>();
  return {
    suspected: () => suspected,
    onChange: (fn) => {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    set: (s) => {
      suspected = new Set(s);
      for (const fn of listeners) fn();
    },
  };
}

/** P0 alone on an endpoint that records what it sends (`to:type(seq…)`) and lets the test deliver. */
function lone(options: { ttl?: number; reselect?: boolean } = {}) {
  const sent: string[] = [];
  let handler: ((from: ProcessId, msg: Message) => void) | undefined;
  const label = (m: Record<string, unknown>) =>
    m.type === 'request'
      ? `request(h${String(m.h)},c${String(m.c)},${String(m.seq)})`
      : m.type === 'confirm'
        ? `confirm(${String(m.seq)},t${String(m.token)})`
        : `${String(m.type)}(${String(m.seq)})`;
  const endpoint = {
    self: 0,
    peers: [0, 1, 2, 3, 4],
    path: '',
    send: (to: ProcessId, msg: Message) => void sent.push(`${to}:${label(msg as never)}`),
    onMessage: (fn: (from: ProcessId, msg: Message) => void) => {
      handler = fn;
      return () => {
        handler = undefined;
      };
    },
    channel: () => {
      throw new Error('no channels here');
    },
  };
  const suspicions = handSuspicions();
  const clock: ProtocolClock = { now: () => 0, setTimer: () => () => {} };
  const initial: CSState[] = Array(n).fill('OutCS');
  const ctx = { id: 0, n, endpoint, initial, suspicions, clock };
  const cs = hOutOfK({ k, arbiter: uniform, reselect: options.reselect ?? true, ttl: options.ttl ?? 30 })(
    ctx,
  );
  const deliver = (from: ProcessId, msg: Message) => handler?.(from, msg);
  const inspect = () => (cs as unknown as { inspect(): HOutOfKSnapshot }).inspect().requester;
  return { cs, sent, deliver, suspicions, inspect, ctx };
}

describe('h-out-of-k with quorum reselection', () => {
  it('S2–S5, message by message: a suspected arbiter moves the attempt, old replies count for nothing, the token is confirmed with the new quorum', async () => {
    const reached = collectReached();
    const { cs, sent, deliver, suspicions, inspect } = lone();
    const entered = cs.entry(1);
    // q_{1,2}(0) of the uniform arbiter: the window {0, 1, 2, 3}
    expect(sent).toEqual([
      '0:request(h1,c1,0)',
      '1:request(h1,c1,0)',
      '2:request(h1,c1,0)',
      '3:request(h1,c1,0)',
    ]);
    deliver(1, { type: 'OK', seq: 0, ts: 3, hs: 40 }); // partial grants of the first attempt
    deliver(2, { type: 'OK', seq: 0, ts: 3, hs: 40 });
    expect(inspect().K).toEqual([1, 2]);
    sent.length = 0;
    suspicions.set([3]); // S2: withdraw, then ask {0, 1, 2, 4}, the window avoiding P3, same h and c
    expect(sent).toEqual([
      '0:release(0)',
      '1:release(0)',
      '2:release(0)',
      '3:release(0)',
      '0:request(h1,c1,1)',
      '1:request(h1,c1,1)',
      '2:request(h1,c1,1)',
      '4:request(h1,c1,1)',
    ]);
    expect(inspect()).toMatchObject({ request: 1, K: [], waiting: true });
    sent.length = 0;
    // late replies of the old attempt: an OK, a confirmed, an expired, a cancel — none counts
    deliver(0, { type: 'OK', seq: 0, ts: 5, hs: 90 });
    deliver(1, { type: 'confirmed', seq: 0, round: 1, ts: 5 });
    deliver(2, { type: 'expired', seq: 0, ts: 5 });
    deliver(1, { type: 'cancel', seq: 0, ts: 5 });
    expect(sent).toEqual([]);
    expect(inspect()).toMatchObject({ request: 1, K: [], waiting: true });
    for (const r of [0, 1, 2]) deliver(r, { type: 'OK', seq: 1, ts: 6, hs: 5 });
    expect(sent).toEqual([]); // F5: not yet every OK of the quorum asked ({0, 1, 2, 4}, not Q_0)
    deliver(4, { type: 'OK', seq: 1, ts: 6, hs: 9 });
    // F5: max(hs) + 1 over the new quorum — the 40 and 90 of the old attempt count for nothing
    expect(sent).toEqual(['0:confirm(1,t10)', '1:confirm(1,t10)', '2:confirm(1,t10)', '4:confirm(1,t10)']);
    for (const r of [0, 1, 2]) deliver(r, { type: 'confirmed', seq: 1, round: 1, ts: 7 });
    expect(cs.state).toBe('OutCS');
    deliver(4, { type: 'confirmed', seq: 1, round: 1, ts: 7 });
    await entered;
    expect(cs.state).toBe('InCS');
    expect(hasTenure(cs) && cs.tenure()?.token).toBe(10);
    sent.length = 0;
    suspicions.set([3, 4]); // F7: a holder never reselects
    expect(sent).toEqual([]);
    await cs.exit();
    expect(sent).toEqual(['0:release(1)', '1:release(1)', '2:release(1)', '4:release(1)']);
    expect(reached.counts.get('h-out-of-k:reselected')).toBe(1);
    reached.stop();
    await cs.close();
  });

  it('S1: an entry while an arbiter is suspected asks a quorum avoiding it; without the option it asks q_{h,k}(i)', async () => {
    for (const reselect of [true, false]) {
      const { cs, sent, suspicions } = lone({ reselect });
      suspicions.set([1]);
      void cs.entry(2).catch(() => {});
      // q_{2,2}(0) = {0, 1, 2}; the first window of size 3 avoiding P1, cyclically: {2, 3, 4}
      const asked = sent.map((m) => Number(m.split(':')[0]));
      expect(asked).toEqual(reselect ? [2, 3, 4] : [0, 1, 2]);
      await cs.close();
    }
  });

  it('seeded: an arbiter crash-stopped, pauses past the ttl and a partition — 0 conflicts, 0 fencing violations, 0 stuck; without reselection, stuck', async () => {
    for (const structure of ['uniform', 'three'] as const) {
      const t = await tenureBatch(1, 30, { structure, reselect: true });
      expect({ conflicts: t.conflicts, violations: t.violations, stuck: t.stuck, bad: t.bad }).toEqual({
        conflicts: 0,
        violations: 0,
        stuck: 0,
        bad: [],
      });
      expect(t.expired).toBeGreaterThan(0);
    }
    const without = await tenureBatch(1, 2, { structure: 'uniform', reselect: false, crashAny: true });
    expect(without.stuck).toBeGreaterThan(0);
  });

  it('availability: what the simulator measures is what reselectionAvailability computes (uniform n = 5, k = 2, p = 0.1)', async () => {
    const p = 0.1;
    for (const h of [1, 2]) {
      const measured = { reselect: 0, fixed: 0 };
      for (let mask = 0; mask < 2 ** n; mask++) {
        const crashed = Array.from({ length: n }, (_, x) => x).filter((x) => (mask >>> x) & 1);
        if (crashed.length === n) continue;
        const weight = p ** crashed.length * (1 - p) ** (n - crashed.length);
        for (const reselect of [true, false]) {
          if (await entersDespite(crashed, h, reselect)) measured[reselect ? 'reselect' : 'fixed'] += weight;
        }
      }
      const computed = reselectionAvailability(uniform.quorumSet(h), p).availability;
      expect(measured.reselect).toBeCloseTo(computed, 12);
      expect(computed).toBeCloseTo(availability(uniform.quorumSet(h), p).availability, 12);
      expect(measured.fixed).toBeLessThan(measured.reselect);
      console.log(
        `h = ${h}: measured ${measured.reselect.toFixed(5)} with reselection (computed ${computed.toFixed(5)}), ${measured.fixed.toFixed(5)} without`,
      );
    }
  });

  it('crash recovery: a state saved on a reselected quorum restarts with reselect on, and is refused without it', async () => {
    const { cs, suspicions } = lone();
    void cs.entry(1).catch(() => {});
    suspicions.set([3]); // the request now asks {0, 1, 2, 4}
    const saved = JSON.parse(JSON.stringify((cs as unknown as DurableCSObject).durableState()));
    expect(saved.requester.Q).toEqual([0, 1, 2, 4]);
    await cs.close();
    const restart = (reselect: boolean) =>
      hOutOfK({ k, arbiter: uniform, reselect, ttl: 30 })({
        ...lone().ctx,
        recovered: saved,
      });
    expect(restart(true).state).toBe('OutCS');
    expect(() => restart(false)).toThrow(
      /saved with Q = \{0, 1, 2, 4\} for h = 1, the arbiter gives \{0, 1, 2, 3\}/,
    );
  });

  it('refuses an arbiter with a single quorum for some h, and a reselect that is not a boolean; the descriptor takes reselect=on', async () => {
    expect(() => hOutOfK({ k, arbiter: fixedArbiter(n, k, [0, 1]), reselect: true })).toThrow(
      /one quorum for h = 1 \(\{0, 1\}\)/,
    );
    expect(() => hOutOfK({ k, arbiter: fixedArbiter(n, k, [0, 1]) })).not.toThrow();
    expect(() => hOutOfK({ k, arbiter: uniform, reselect: 'on' as never })).toThrow(ConfigurationError);
    const ctx = { weigh: () => {}, readJson: () => null, isFile: () => false } as never;
    const built = hOutOfKDescriptor.build({ k: '2', arbiter: 'uniform', reselect: 'on' }, n, ctx);
    expect(built.options).toMatchObject({ reselect: 'on' });
    expect(hOutOfKDescriptor.build({ k: '2' }, n, ctx).options).not.toHaveProperty('reselect');
    expect(() => hOutOfKDescriptor.build({ k: '2', reselect: 'maybe' }, n, ctx)).toThrow(ConfigurationError);
  });
});

/** True when the lowest live process, the others of `crashed` crash-stopped at 0, enters with h units. */
async function entersDespite(crashed: readonly ProcessId[], h: number, reselect: boolean): Promise<boolean> {
  const cluster = createCluster({
    factory: hOutOfK({ k, arbiter: uniform, reselect }),
    spec: hOutOfKSpec(k, n),
    suspectAfter: 2,
  });
  for (const p of crashed) cluster.net.crash(p);
  const i = [0, 1, 2, 3, 4].find((p) => !crashed.includes(p))!;
  let entered = false;
  cluster.objects[i]!.entry(h).then(
    () => {
      entered = true;
    },
    () => {},
  );
  await cluster.net.run({ until: 50 });
  await cluster.close();
  return entered;
}
