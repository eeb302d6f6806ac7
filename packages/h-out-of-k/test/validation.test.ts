/**
 * Bad input gets a typed error and loses nothing: settings (`ConfigurationError` before any
 * message), `entry(h)` with a bad h (rejected, nothing sent, the object still usable), malformed
 * or forged messages (dropped, counted, reported as `ProtocolError`), and valid messages with
 * extreme field values (clocks at `CLOCK_MAX`) delivered mid-run — after which the cluster must
 * still finish its workload.
 */
import { ConfigurationError, type CSState, hOutOfKSpec, ProtocolError } from '@critsec/core';
import { cubeHKArbiter, uniformHKArbiter, uniformKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { CLOCK_MAX } from '@critsec/transport';
import { exponentialDelay, SimNetwork, uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { asHKArbiter, hOutOfK, hOutOfKProtocol, hOutOfKRequest } from '../src/index.js';
import { inspectH, randomH } from './helpers.js';

describe('settings are checked before any message', () => {
  const arbiter = uniformHKArbiter(5, 2);
  const ctx = (n: number, initial?: CSState[]) => ({
    id: 0,
    n,
    endpoint: new SimNetwork({ n }).endpoint(0),
    initial: initial ?? Array.from({ length: n }, (): CSState => 'OutCS'),
  });

  it('k must be an integer ≥ 1 and match the arbiter', () => {
    for (const k of [0, -1, 1.5, Number.NaN, '2' as unknown as number]) {
      expect(() => hOutOfK({ k, arbiter })).toThrow(ConfigurationError);
      expect(() => hOutOfK({ k, arbiter })).toThrow(/k \(units\) must be an integer ≥ 1, got k = /);
    }
    expect(() => hOutOfK({ k: 3, arbiter })).toThrow(/built for k = 2 units, but k = 3/);
  });

  it('the arbiter must be an (h,k)-arbiter for the cluster size', () => {
    expect(() => hOutOfK({ k: 2, arbiter: undefined as never })).toThrow(/must be an \(h,k\)-arbiter/);
    expect(() => hOutOfK({ k: 2, arbiter: { n: 5, k: 2 } as never })).toThrow(ConfigurationError);
    expect(() => hOutOfK(undefined as never)).toThrow(ConfigurationError);
    const f = hOutOfK({ k: 2, arbiter });
    expect(() => f(ctx(6))).toThrow(/built for n = 5 processes but the cluster has n = 6/);
    expect(f(ctx(5)).state).toBe('OutCS');
  });

  it('every process starts OutCS (Fig. 1)', () => {
    const f = hOutOfK({ k: 2, arbiter });
    const initial: CSState[] = ['OutCS', 'InCS', 'OutCS', 'InCS', 'OutCS'];
    expect(() => f(ctx(5, initial))).toThrow(ConfigurationError);
    expect(() => f(ctx(5, initial))).toThrow(/got InCS initially: P1, P3/);
  });

  it('asHKArbiter takes a k-arbiter and refuses anything else', () => {
    const a = asHKArbiter(uniformKArbiter(5, 2));
    expect(a.quorumOf(3, 2)).toEqual(a.quorumOf(3, 1));
    expect(() => a.quorumOf(0, 3)).toThrow(/1 ≤ h ≤ k = 2, got h = 3/);
    expect(a.toJSON().assignments).toHaveLength(2);
    expect(() => asHKArbiter({} as never)).toThrow(ConfigurationError);
  });
});

describe('hOutOfKRequest', () => {
  it('draws a fixed h or h uniform in 1..k, and refuses anything else', () => {
    const rng = { int: (b: number) => b - 1 };
    expect(hOutOfKRequest(3, 2)(rng)).toBe(2);
    expect(hOutOfKRequest(3, 'random')(rng)).toBe(3);
    expect(hOutOfKRequest(3, 'random')({ int: () => 0 })).toBe(1);
    for (const h of [0, 4, 1.5]) expect(() => hOutOfKRequest(3, h)).toThrow(/1 ≤ h ≤ k = 3, got h = /);
    expect(() => hOutOfKRequest(0, 1)).toThrow(ConfigurationError);
  });
});

describe('entry(h) with a bad h', () => {
  it('rejects with ConfigurationError, sends nothing, and the object stays usable', async () => {
    const k = 3;
    const cluster = createCluster({
      factory: hOutOfK({ k, arbiter: uniformHKArbiter(5, k) }),
      spec: hOutOfKSpec(k, 5),
    });
    const cs = cluster.objects[0]!;
    for (const h of [0, k + 1, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number]) {
      const err = await cs.entry(h).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, `h = ${String(h)}`).toBeInstanceOf(ConfigurationError);
      expect((err as Error).message).toMatch(/entry\(h\) needs an integer h with 1 ≤ h ≤ k = 3, got h = /);
      expect(cluster.net.counters().sent).toBe(0);
      expect(cs.state).toBe('OutCS');
      expect(cs.pending).toBeNull();
    }
    const r = await runWorkload(cluster, { kind: 'sequential', rounds: 1, request: randomH(k) });
    expect(r.ok, r.failure ?? '').toBe(true);
  });
});

describe('malformed and forged messages', () => {
  const k = 2;
  const bad: [string, unknown][] = [
    ['unknown type', { type: 'HELLO', seq: 1, ts: 1 }],
    ['missing fields', { type: 'OK' }],
    ['h = 0', { type: 'request', h: 0, c: 1, seq: 0 }],
    ['h > k', { type: 'request', h: k + 1, c: 1, seq: 0 }],
    ['non-integer h', { type: 'request', h: 1.5, c: 1, seq: 0 }],
    ['negative clock', { type: 'release', seq: 0, ts: -1 }],
    ['negative tag', { type: 'release', seq: -1, ts: 0 }],
    ['clock beyond the safe range', { type: 'cancel', seq: 1, ts: CLOCK_MAX + 1 }],
    ['clock beyond the safe range (request)', { type: 'request', h: 1, c: 2 ** 53, seq: 0 }],
    ['string clock', { type: 'cancelled', seq: 1, ts: '1' }],
    ['request without a tag', { type: 'request', h: 1, c: 1 }],
    ['not an object', 'OK'],
  ];

  it('are dropped, counted and reported; the cluster keeps working', async () => {
    const n = 5;
    const arbiter = cubeHKArbiter(n, k);
    const cluster = createCluster({ factory: hOutOfK({ k, arbiter }), spec: hOutOfKSpec(k, n) });
    const net = cluster.net;
    const before = hOutOfKProtocol(k).dropped;
    for (const [, msg] of bad) net.endpoint(1).send(0, msg as never);
    const outsider = [0, 1, 2, 3, 4].find((p) => !arbiter.quorumOf(p, 1).includes(0));
    if (outsider !== undefined) net.endpoint(outsider).send(0, { type: 'request', h: 1, c: 1, seq: 0 });
    await net.run();
    expect(hOutOfKProtocol(k).dropped - before).toBe(bad.length);
    const expected = bad.length + (outsider === undefined ? 0 : 1);
    expect(cluster.errors).toHaveLength(expected);
    for (const { error, process } of cluster.errors) {
      expect(error).toBeInstanceOf(ProtocolError);
      expect(process).toBe(0);
    }
    if (outsider !== undefined) expect(cluster.errors.at(-1)!.error.message).toMatch(/does not contain P0/);
    expect(inspectH(cluster, 0).arbiter).toEqual({ x: k, Que: [] });
    const r = await runWorkload(cluster, { rounds: 3, request: randomH(k) });
    expect(r.ok, r.failure ?? '').toBe(true);
  });

  it('the schema bounds every field a peer can send', () => {
    const p = hOutOfKProtocol(k);
    expect(p.is({ type: 'request', h: k, c: CLOCK_MAX, seq: CLOCK_MAX })).toBe(true);
    for (const type of ['OK', 'cancel', 'cancelled', 'release'])
      expect(p.is({ type, seq: 0, ts: CLOCK_MAX })).toBe(true);
    for (const [label, msg] of bad) expect(p.is(msg), label).toBe(false);
    expect(() => hOutOfKProtocol(0)).toThrow(RangeError);
  });

  it('a second request while the first is in Que is set aside and probed, not reported; nothing stays held (issue 27 §3)', async () => {
    const cluster = createCluster({
      factory: hOutOfK({ k, arbiter: uniformHKArbiter(3, k) }),
      spec: hOutOfKSpec(k, 3),
    });
    // three messages in P1's name that P1 never sent: its object answers the OK and the probe for
    // a request it never made with release
    cluster.net.endpoint(1).send(0, { type: 'request', h: 1, c: 5, seq: 0 });
    cluster.net.endpoint(1).send(0, { type: 'request', h: 1, c: 6, seq: 1 });
    cluster.net.endpoint(1).send(0, { type: 'release', seq: 0, ts: 6 });
    await cluster.net.run();
    expect(cluster.errors).toEqual([]);
    expect(inspectH(cluster, 0).arbiter).toEqual({ x: k, Que: [] });
  });
});

describe('valid messages with extreme field values, delivered mid-run', () => {
  for (const [label, delay] of [
    ['exponential', exponentialDelay(1)],
    ['uniform', uniformDelay(0.1, 2)],
  ] as const) {
    it(`clocks at CLOCK_MAX saturate; the cluster finishes its workload (${label} delays, 20 seeds)`, async () => {
      const n = 6;
      const k = 3;
      const arbiter = uniformHKArbiter(n, k);
      let saturated = 0;
      for (let seed = 1; seed <= 20; seed++) {
        const cluster = createCluster({
          factory: hOutOfK({ k, arbiter }),
          spec: hOutOfKSpec(k, n),
          seed,
          delay,
        });
        const net = cluster.net;
        const inject = () => {
          const from = (seed + Math.floor(net.now)) % n;
          for (const to of arbiter.quorumOf(from, 1)) {
            // stale messages with extreme tags and clocks, each from a legitimate sender (arbiter
            // `to` answers requester `from`, which writes back): ignored, but every clock saturates
            net.endpoint(to).send(from, { type: 'OK', seq: CLOCK_MAX, ts: CLOCK_MAX });
            net.endpoint(to).send(from, { type: 'cancel', seq: CLOCK_MAX, ts: CLOCK_MAX });
            net.endpoint(from).send(to, { type: 'cancelled', seq: CLOCK_MAX, ts: CLOCK_MAX });
            net.endpoint(from).send(to, { type: 'release', seq: CLOCK_MAX, ts: CLOCK_MAX });
          }
        };
        for (const t of [3, 7, 12]) net.schedule(t, inject, 'inject');
        const r = await runWorkload(cluster, { rounds: 4, think: 1, hold: 1, request: randomH(k) });
        expect(r.ok, `seed ${seed}: ${r.failure}`).toBe(true);
        expect(cluster.errors).toEqual([]);
        if (cluster.objects.some((_, i) => inspectH(cluster, i).c === CLOCK_MAX)) saturated++;
      }
      expect(saturated).toBe(20);
    });
  }

  it('a request with extreme priority (c = 0 and c = CLOCK_MAX) and its release leave no trace', async () => {
    const n = 5;
    const k = 2;
    const arbiter = uniformHKArbiter(n, k);
    const cluster = createCluster({ factory: hOutOfK({ k, arbiter }), spec: hOutOfKSpec(k, n), seed: 3 });
    const net = cluster.net;
    const to = arbiter.quorumOf(4, 2);
    for (const r of to) {
      net.endpoint(4).send(r, { type: 'request', h: 2, c: 0, seq: 0 });
      net.endpoint(4).send(r, { type: 'release', seq: 0, ts: 0 });
      net.endpoint(4).send(r, { type: 'request', h: 1, c: CLOCK_MAX, seq: CLOCK_MAX });
      net.endpoint(4).send(r, { type: 'release', seq: CLOCK_MAX, ts: CLOCK_MAX });
    }
    await net.run();
    for (const r of to) expect(inspectH(cluster, r).arbiter).toEqual({ x: k, Que: [] });
    const res = await runWorkload(cluster, { rounds: 3, request: randomH(k) });
    expect(res.ok, res.failure ?? '').toBe(true);
    expect(cluster.errors).toEqual([]);
  });
});
