/**
 * Crash recovery of h-out-of-k (issue 27; `src/durable.ts`, `durableState()` and `recover()` of
 * `src/h-out-of-k.ts`): the durable state round-trips exactly after every event of seeded runs; a
 * process swapped for an object rebuilt from its durable state (a crash and restart with nothing
 * lost) keeps the cluster safe and live; recovery withdraws a waiting request and leaves a held
 * CS; a recovered state that is not this process's is refused.
 */
import {
  ConfigurationError,
  CSMICError,
  hOutOfKSpec,
  isDurableCSObject,
  type Message,
  type ProcessId,
} from '@critsec/core';
import { cubeHKArbiter, type HKArbiter, uniformHKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { type HOutOfKDurableState, hOutOfK, hOutOfKDescriptor, hOutOfKRequest } from '../src/index.js';
import { durable, inspectOf, roundTripFactory, swapRestoreRun } from './durable-run.js';
import { fixedArbiter } from './helpers.js';

/** Each configuration with its seeds for the round-trip check and for swap-restore. */
const configs: [string, HKArbiter, number, number][] = [
  ['uniform n = 5, k = 2', uniformHKArbiter(5, 2), 15, 250],
  ['cube n = 8, k = 2', cubeHKArbiter(8, 2), 6, 100],
];

describe('durableState() round-trips after every event (seeded runs with aborts)', () => {
  for (const [name, arbiter, seeds] of configs) {
    it(`${name}: ${seeds} seeds, the copy built from it equals the original`, async () => {
      const found: string[] = [];
      const checks = { count: 0 };
      const factory = roundTripFactory(hOutOfK({ k: arbiter.k, arbiter }), found, checks);
      for (let seed = 1; seed <= seeds && found.length === 0; seed++) {
        const cluster = createCluster({ factory, spec: hOutOfKSpec(arbiter.k, arbiter.n), seed });
        const r = await runWorkload(cluster, {
          rounds: 3,
          request: hOutOfKRequest(arbiter.k, 'random'),
          abort: { probability: 0.3, within: 3 },
        });
        await cluster.close();
        if (!r.ok) found.push(`seed ${seed}: ${r.failure ?? 'not ok'}`);
      }
      expect(found).toEqual([]);
      expect(checks.count).toBeGreaterThan(2_000);
    });
  }
});

describe('swap-restore: processes rebuilt from their durable state mid-run', () => {
  for (const [name, arbiter, , seeds] of configs) {
    it(`${name}: ${seeds} seeds, 4 swaps each — 0 violations, every process completes its rounds`, async () => {
      const factory = hOutOfK({ k: arbiter.k, arbiter });
      const bad: string[] = [];
      let cut = 0;
      for (let seed = 1; seed <= seeds && bad.length === 0; seed++) {
        const r = await swapRestoreRun(factory, arbiter.n, arbiter.k, seed, 4);
        cut += r.cut;
        if (r.violations > 0 || r.stuck.length > 0 || r.problems.length > 0) {
          bad.push(`seed ${seed}: ${r.violations} violations, stuck ${r.stuck}, ${r.problems.join('; ')}`);
        }
      }
      expect(bad).toEqual([]);
      expect(cut).toBeGreaterThan(seeds); // the swaps do cut waiting entries and held CSs
    });
  }
});

type Sent = { type: string; seq: number; ts?: number; h?: number; c?: number };

/**
 * P0 of three processes, k = 2, every quorum {P0, P1} for every h (P0 is everyone's arbiter), on
 * an endpoint that records what it sends as `to:type(seq)`.
 */
function rig(recovered?: unknown) {
  const sent: string[] = [];
  let handler: ((from: ProcessId, msg: Message) => void) | undefined;
  const endpoint = {
    self: 0,
    peers: [0, 1, 2],
    path: '',
    send: (to: ProcessId, msg: Message) => {
      sent.push(`${to}:${String(msg.type)}(${String((msg as Sent).seq)})`);
    },
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
  const ctx = { id: 0, n: 3, endpoint, initial: Array(3).fill('OutCS') };
  const factory = hOutOfK({ k: 2, arbiter: fixedArbiter(3, 2, [0, 1]) });
  const cs = durable(factory(recovered === undefined ? ctx : { ...ctx, recovered: recovered as never }));
  const send = (from: number, msg: Sent) => handler?.(from, { ts: 0, ...msg } as unknown as Message);
  return { cs, sent, send, snap: () => inspectOf(cs) };
}

/** P0 asks for one unit and takes its own OK (P1's is missing): it waits. */
const waitingWithOwnOK = (r: ReturnType<typeof rig>): void => {
  void r.cs.entry(1);
  r.send(0, { type: 'request', h: 1, c: 1, seq: 0 });
  r.send(0, { type: 'OK', seq: 0, ts: 2 });
};

/** P0's durable state after `scene`, through JSON. */
function stateAfter(scene: (r: ReturnType<typeof rig>) => void): HOutOfKDurableState {
  const r = rig();
  scene(r);
  return JSON.parse(JSON.stringify(r.cs.durableState())) as HOutOfKDurableState;
}

describe('recover()', () => {
  it('a fresh object resolves at once and sends nothing', async () => {
    const r = rig();
    await r.cs.recover();
    expect(r.sent).toEqual([]);
    expect(isDurableCSObject(r.cs)).toBe(true);
  });

  it('recovered InCS: release to each arbiter of Q, then OutCS', async () => {
    const saved = stateAfter((r) => {
      void r.cs.entry(2);
      for (const from of [0, 1]) r.send(from, { type: 'OK', seq: 0 });
    });
    expect(saved.state).toBe('InCS');
    expect(saved.requester).toMatchObject({ request: 0, seq: 1, h: 2, Q: [0, 1], K: [0, 1], waiting: false });
    const r = rig(saved);
    expect(r.cs.state).toBe('InCS');
    const flips: string[] = [];
    r.cs.on('statechange', (s) => flips.push(s));
    await r.cs.recover();
    expect(r.sent).toEqual(['0:release(0)', '1:release(0)']);
    expect(r.cs.state).toBe('OutCS');
    expect(flips).toEqual(['OutCS']);
    await r.cs.recover(); // done once
    expect(r.sent).toHaveLength(2);
  });

  it("recovered waiting with P0's own OK: OutCS, the request stands until recover() releases it", async () => {
    const saved = stateAfter(waitingWithOwnOK);
    expect(saved.state).toBe('OutCS');
    expect(saved.requester).toMatchObject({ waiting: true, request: 0, K: [0], c: 1 });
    expect(saved.arbiter).toMatchObject({ x: 1, Que: [[0, 1, 1, 'ok', 0, 2]] });
    const r = rig(saved);
    expect(r.cs.state).toBe('OutCS'); // no entry() is in flight
    r.send(2, { type: 'request', h: 2, c: 0, seq: 0 }); // beats P0's request: cancel(0) to P0 itself
    expect(r.sent).toEqual(['0:cancel(0)']);
    r.send(0, { type: 'cancel', seq: 0, ts: 3 }); // still waiting: answered
    expect(r.sent.at(-1)).toBe('0:cancelled(0)');
    r.sent.length = 0;
    await r.cs.recover();
    expect(r.sent).toEqual(['0:release(0)', '1:release(0)']);
    expect(r.snap().requester).toMatchObject({ request: -1, waiting: false, K: [] });
    r.sent.length = 0;
    r.send(1, { type: 'OK', seq: 0, ts: 1 }); // in flight before: stale, ignored
    expect(r.sent).toEqual([]);
    expect(r.cs.state).toBe('OutCS');
  });

  it('a recovered waiting request never enters: the last OK before recover() is kept, not acted on', async () => {
    const saved = stateAfter(waitingWithOwnOK);
    const r = rig(saved);
    r.send(1, { type: 'OK', seq: 0, ts: 2 }); // K = Q now, but nobody waits in entry()
    expect(r.cs.state).toBe('OutCS');
    expect(r.snap().requester).toMatchObject({ In: false, waiting: true, K: [0, 1] });
    await r.cs.recover();
    expect(r.sent).toEqual(['0:release(0)', '1:release(0)']);
  });

  it('entry() before recover() withdraws the recovered request first', () => {
    const saved = stateAfter((r) => void r.cs.entry(1));
    const r = rig(saved);
    void r.cs.entry(2);
    expect(r.sent).toEqual(['0:release(0)', '1:release(0)', '0:request(1)', '1:request(1)']);
  });

  it("recover() on an object that entered by itself leaves its application's CS alone", async () => {
    const r = rig();
    const entered = r.cs.entry(2);
    for (const from of [0, 1]) r.send(from, { type: 'OK', seq: 0 });
    await entered;
    await r.cs.recover();
    expect(r.cs.state).toBe('InCS');
    expect(r.sent).toEqual(['0:request(0)', '1:request(0)']);
  });

  it('rejects with CSMICError while a call is in flight', async () => {
    const r = rig();
    void r.cs.entry(1);
    await expect(r.cs.recover()).rejects.toBeInstanceOf(CSMICError);
  });

  it('the arbiter resumes x, Que and the clock: the holder’s release grants the waiting request', () => {
    const saved = stateAfter((r) => {
      r.send(1, { type: 'request', h: 2, c: 3, seq: 5 });
      r.send(2, { type: 'request', h: 1, c: 4, seq: 7 });
    });
    expect(saved.arbiter).toMatchObject({
      x: 0,
      Que: [
        [1, 3, 2, 'ok', 5, 4],
        [2, 4, 1, 'wait', 7, -1],
      ],
    });
    expect(saved.c).toBe(5);
    const r = rig(saved);
    r.send(1, { type: 'release', seq: 5, ts: 9 });
    expect(r.sent).toEqual(['2:OK(7)']);
    void r.cs.entry(1);
    expect(r.snap().requester).toMatchObject({ request: 0 });
    expect(r.snap().c).toBe(11); // resumed at 5, witnessed 9, ticked twice
  });

  it("each entry's OK clock survives: a release stamped before the OK arrived is still asked about", () => {
    const saved = stateAfter((r) => r.send(1, { type: 'request', h: 1, c: 6, seq: 2 }));
    expect(saved.arbiter.Que).toEqual([[1, 6, 1, 'ok', 2, 7]]);
    const r = rig(saved);
    r.send(1, { type: 'release', seq: 2, ts: 7 }); // at the OK's clock: sent before P1 had it
    expect(r.sent).toEqual(['1:probe(2)']);
    expect(r.snap().arbiter.x).toBe(1); // the units stay taken until P1 answers
  });

  it('a request set aside, the doubt and done(p) survive (issue 27 §3)', () => {
    const saved = stateAfter((r) => {
      r.send(1, { type: 'request', h: 1, c: 1, seq: 4 });
      r.send(1, { type: 'release', seq: 4, ts: 9 });
      r.send(1, { type: 'request', h: 1, c: 2, seq: 3 }); // at or below done: admitted, probed
      r.send(1, { type: 'request', h: 1, c: 3, seq: 8 }); // a second one: set aside, probed
    });
    expect(saved.arbiter).toMatchObject({ aside: [[1, 1, 3, 8]], suspect: [1], done: [[1, 4]] });
    const r = rig(saved);
    r.send(1, { type: 'release', seq: 3, ts: 20 }); // the doubtful entry ends: the one aside is admitted
    expect(r.sent).toEqual(['1:OK(8)', '1:probe(8)']);
  });
});

describe('a recovered state that is not this process’s is refused with ConfigurationError', () => {
  const good = stateAfter((r) => {
    waitingWithOwnOK(r);
    r.send(2, { type: 'request', h: 2, c: 5, seq: 0 });
  });
  const other = (id: number, n: number, k: number) => {
    const endpoint = {
      self: id,
      peers: [],
      path: '',
      send: () => {},
      onMessage: () => () => {},
      channel: () => {
        throw new Error();
      },
    };
    const f = hOutOfK({ k, arbiter: fixedArbiter(n, k, [0, 1]) });
    return durable(f({ id, n, endpoint, initial: Array(n).fill('OutCS') })).durableState();
  };
  const req = good.requester;
  const arb = good.arbiter;
  const cases: [string, unknown][] = [
    ['null', null],
    ['an empty object', {}],
    ['a string', 'InCS'],
    ['another format', { ...good, format: 'critsec/h-out-of-k@0' }],
    ['an extra field', { ...good, extra: 1 }],
    ['a fractional clock', { ...good, c: 1.5 }],
    ['a negative request count', { ...good, requester: { ...req, seq: -1 } }],
    ["P1's state", other(1, 3, 2)],
    ['a state of another cluster size', other(0, 4, 2)],
    ['a state of another k', other(0, 3, 1)],
    ['a quorum the arbiter does not give', { ...good, requester: { ...req, Q: [0, 2] } }],
    ['InCS without every OK', { ...good, state: 'InCS', requester: { ...req, waiting: false } }],
    ['an OK outside Q', { ...good, requester: { ...req, K: [2] } }],
    ['an OK held twice', { ...good, requester: { ...req, K: [0, 0] } }],
    ['h outside 1..k', { ...good, requester: { ...req, h: 3 } }],
    ['a request that is not the latest', { ...good, requester: { ...req, seq: 3 } }],
    ['a request clock past c', { ...good, requester: { ...req, c: good.c + 1 } }],
    ['an idle requester with a quorum', { ...good, requester: { ...req, request: -1 } }],
    ['x off the units taken', { ...good, arbiter: { ...arb, x: 2 } }],
    ['Que out of priority order', { ...good, arbiter: { ...arb, Que: [...arb.Que].reverse() } }],
    ['two entries of one process', { ...good, arbiter: { ...arb, Que: [arb.Que[0]!, [...arb.Que[0]!]] } }],
    [
      'units taken with no OK sent',
      { ...good, arbiter: { ...arb, Que: arb.Que.map((e) => [...e.slice(0, 5), -1]) } },
    ],
    [
      'a status outside wait / ok / cancel',
      { ...good, arbiter: { ...arb, Que: [[...arb.Que[0]!.slice(0, 3), 'done', 0, 1]] } },
    ],
    ['a request set aside with no entry', { ...good, arbiter: { ...arb, aside: [[1, 1, 1, 4]] } }],
    ['a doubt about no entry', { ...good, arbiter: { ...arb, suspect: [1] } }],
  ];
  for (const [what, recovered] of cases) {
    it(what, () => {
      expect(() => rig(recovered)).toThrow(ConfigurationError);
      expect(() => rig(recovered)).toThrow(
        /cannot resume from its recovered state: .*must not rejoin as new/,
      );
    });
  }

  it('the good state itself is accepted (the cases above differ from it in one field)', () => {
    expect(good.arbiter.Que).toHaveLength(2);
    expect(rig(good).cs.durableState()).toEqual(good);
  });
});

describe('the descriptor', () => {
  it('says h-out-of-k supports crash recovery', () => {
    expect(hOutOfKDescriptor.crashRecovery).toBe(true);
  });
});
