/**
 * Crash recovery of Maekawa's algorithm (issue 27; `src/maekawa-durable.ts`, `durableState()` and
 * `recover()` of `src/maekawa-process.ts`): the durable state round-trips exactly after every
 * event of seeded runs; a process swapped for an object rebuilt from its durable state (a crash
 * and restart with nothing lost) keeps the cluster safe and live; recovery withdraws a waiting
 * request and leaves a held CS; a recovered state that is not this process's is refused.
 */
import { ConfigurationError, type CSFactory, CSMICError, isDurableCSObject, mutexSpec } from '@critsec/core';
import { type Coterie, grid, majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { maekawa, maekawaDescriptor, type MaekawaDurableState, type MaekawaMessage } from '../src/index.js';
import { durable, roundTripFactory, swapRestoreRun } from './durable-run.js';
import { fakeEndpoint } from './helpers.js';

const configs: [string, Coterie, number][] = [
  ['majority(5)', majority(5), 50],
  ['grid(9)', grid(9), 20],
];

describe('durableState() round-trips after every event (seeded runs with aborts)', () => {
  for (const [name, coterie, seeds] of configs) {
    it(`${name}: ${seeds} seeds, the copy built from it equals the original`, async () => {
      const found: string[] = [];
      const checks = { count: 0 };
      const factory = roundTripFactory(maekawa({ coterie }), found, checks);
      for (let seed = 1; seed <= seeds && found.length === 0; seed++) {
        const cluster = createCluster({ factory, spec: mutexSpec(coterie.n), seed });
        const r = await runWorkload(cluster, { rounds: 3, abort: { probability: 0.3, within: 3 } });
        await cluster.close();
        if (!r.ok) found.push(`seed ${seed}: ${r.failure ?? 'not ok'}`);
      }
      expect(found).toEqual([]);
      expect(checks.count).toBeGreaterThan(5_000);
    });
  }
});

describe('swap-restore: processes rebuilt from their durable state mid-run', () => {
  for (const [name, coterie] of configs) {
    it(`${name}: 100 seeds, 4 swaps each — 0 violations, every process completes its rounds`, async () => {
      const factory = maekawa({ coterie });
      const bad: string[] = [];
      let cut = 0;
      for (let seed = 1; seed <= 100 && bad.length === 0; seed++) {
        const r = await swapRestoreRun(factory, coterie.n, seed, { swaps: 4 });
        cut += r.cut;
        if (r.violations > 0 || r.stuck.length > 0 || r.problems.length > 0) {
          bad.push(`seed ${seed}: ${r.violations} violations, stuck ${r.stuck}, ${r.problems.join('; ')}`);
        }
      }
      expect(bad).toEqual([]);
      expect(cut).toBeGreaterThan(100); // the swaps do cut waiting entries and held CSs
    });
  }
});

/** P0 of the 2×2 grid (Q_0 = {0, 1, 2}, R_0 = {0, 1, 2}) on a fake endpoint recording what it sends. */
function rig(recovered?: unknown) {
  const { endpoint, sent, deliver } = fakeEndpoint(
    0,
    [0, 1, 2, 3],
    (m) => `${String(m.type)}(${String(m.req)})`,
  );
  const ctx = { id: 0, n: 4, endpoint, initial: Array(4).fill('OutCS') };
  const cs = durable(
    maekawa({ coterie: grid(4) })(recovered === undefined ? ctx : { ...ctx, recovered: recovered as never }),
  );
  const send = (from: number, type: MaekawaMessage['type'], req: number) =>
    deliver(from, { type, req, ts: req });
  return { cs, sent, send, snap: () => (cs as unknown as { inspect(): { requester: unknown } }).inspect() };
}

/** P0's durable state after `scene`, through JSON. */
function stateAfter(scene: (r: ReturnType<typeof rig>) => void): MaekawaDurableState {
  const r = rig();
  scene(r);
  return JSON.parse(JSON.stringify(r.cs.durableState())) as MaekawaDurableState;
}

describe('recover()', () => {
  it('a fresh object resolves at once and sends nothing', async () => {
    const r = rig();
    await r.cs.recover();
    expect(r.sent).toEqual([]);
    expect(isDurableCSObject(r.cs)).toBe(true);
  });

  it('recovered InCS: RELEASE to each arbiter of Q_0, then OutCS', async () => {
    const saved = stateAfter((r) => {
      void r.cs.entry();
      for (const k of [0, 1, 2]) r.send(k, 'LOCKED', 1);
    });
    expect(saved.state).toBe('InCS');
    const r = rig(saved);
    expect(r.cs.state).toBe('InCS');
    const flips: string[] = [];
    r.cs.on('statechange', (s) => flips.push(s));
    await r.cs.recover();
    expect(r.sent).toEqual(['0:RELEASE(1)', '1:RELEASE(1)', '2:RELEASE(1)']);
    expect(r.cs.state).toBe('OutCS');
    expect(flips).toEqual(['OutCS']);
    await r.cs.recover(); // done once
    expect(r.sent).toHaveLength(3);
  });

  it('recovered Trying with a lock, a FAILED and a deferred nothing: OutCS, marks kept until recover() gives every lock back', async () => {
    const saved = stateAfter((r) => {
      void r.cs.entry();
      r.send(1, 'LOCKED', 1);
      r.send(2, 'FAILED', 1);
    });
    expect(saved.state).toBe('OutCS');
    expect(saved.requester).toMatchObject({ waiting: true, request: 1, locks: [1], failed: [2] });
    const r = rig(saved);
    expect(r.cs.state).toBe('OutCS'); // Trying counts as OutCS: no entry() is in flight
    // before recover(), the request still stands and its marks rule: an INQUIRE is answered at once (R4)
    r.send(1, 'INQUIRE', 1);
    expect(r.sent).toEqual(['1:RELINQUISH(1)']);
    r.sent.length = 0;
    await r.cs.recover();
    expect(r.sent).toEqual(['0:RELEASE(1)', '1:RELEASE(1)', '2:RELEASE(1)']);
    expect(r.snap().requester).toMatchObject({
      request: -1,
      waiting: false,
      locks: [],
      failed: [],
      yielded: [],
    });
    r.sent.length = 0;
    r.send(0, 'LOCKED', 1); // still in flight: stale, ignored (its RELEASE is on its way)
    expect(r.sent).toEqual([]);
    expect(r.cs.state).toBe('OutCS');
  });

  it('recovered with a deferred INQUIRE and no mark: the INQUIRE stays deferred until a FAILED', () => {
    const saved = stateAfter((r) => {
      void r.cs.entry();
      r.send(1, 'LOCKED', 1);
      r.send(1, 'INQUIRE', 1);
    });
    expect(saved.requester.inquiredBy).toEqual([1]);
    const r = rig(saved);
    r.send(2, 'FAILED', 1); // R3 answers the deferred INQUIRE
    expect(r.sent).toEqual(['1:RELINQUISH(1)']);
  });

  it('entry() before recover() withdraws the recovered request first', async () => {
    const saved = stateAfter((r) => void r.cs.entry());
    const r = rig(saved);
    void r.cs.entry();
    expect(r.sent).toEqual([
      ...['0:RELEASE(1)', '1:RELEASE(1)', '2:RELEASE(1)'],
      ...['0:REQUEST(2)', '1:REQUEST(2)', '2:REQUEST(2)'],
    ]);
  });

  it('rejects with CSMICError while a call is in flight', async () => {
    const r = rig();
    void r.cs.entry();
    await expect(r.cs.recover()).rejects.toBeInstanceOf(CSMICError);
  });

  it("the arbiter resumes its holder, queue and clock: the holder's RELEASE grants the queue head", () => {
    const saved = stateAfter((r) => {
      r.send(1, 'REQUEST', 3);
      r.send(2, 'REQUEST', 5);
    });
    expect(saved.arbiter).toMatchObject({ grantedTo: 1, grantedReq: 3, queue: [[2, 5, true]] });
    expect(saved.sn).toBe(5);
    const r = rig(saved);
    r.send(1, 'RELEASE', 3);
    expect(r.sent).toEqual(['2:LOCKED(5)']);
    void r.cs.entry();
    expect(r.sent.at(-1)).toBe('2:REQUEST(6)'); // sn resumed at 5
  });

  it('the arbiter resumes its INQUIRE flag: no second INQUIRE for the same grant', () => {
    const saved = stateAfter((r) => {
      r.send(1, 'REQUEST', 3);
      r.send(2, 'REQUEST', 2); // beats the holder: INQUIRE(3) to P1
    });
    expect(saved.arbiter).toMatchObject({ grantedTo: 1, inquired: true, queue: [[2, 2, false]] });
    const r = rig(saved);
    r.send(0, 'REQUEST', 1); // beats both: the displaced head is told, the holder was inquired already
    expect(r.sent).toEqual(['2:FAILED(2)']);
  });

  it("A4's request set aside survives: admitted and probed when the entry ends", () => {
    const saved = stateAfter((r) => {
      r.send(1, 'REQUEST', 3);
      r.send(1, 'REQUEST', 4); // P1 asks again while its entry stands: set aside, PROBE(3)
    });
    expect(saved.arbiter.aside).toEqual([[1, 4]]);
    const r = rig(saved);
    r.send(1, 'RELEASE', 3);
    expect(r.sent).toEqual(['1:LOCKED(4)', '1:PROBE(4)']);
  });

  it("A4's done(p) survives: a REQUEST at or below a tag already ended is probed", () => {
    const saved = stateAfter((r) => {
      r.send(1, 'REQUEST', 3);
      r.send(1, 'RELEASE', 3);
    });
    expect(saved.arbiter.done).toEqual([[1, 3]]);
    const r = rig(saved);
    r.send(1, 'REQUEST', 2);
    expect(r.sent).toEqual(['1:LOCKED(2)', '1:PROBE(2)']);
  });
});

describe('a recovered state that is not this process’s is refused with ConfigurationError', () => {
  const good = stateAfter((r) => {
    void r.cs.entry();
    r.send(1, 'LOCKED', 1);
  });
  const other = (f: CSFactory, id: number, n: number) => {
    const { endpoint } = fakeEndpoint(id, [], () => '');
    return durable(f({ id, n, endpoint, initial: Array(n).fill('OutCS') })).durableState();
  };
  const cases: [string, unknown][] = [
    ['null', null],
    ['an empty object', {}],
    ['a string', 'InCS'],
    ['another format', { ...good, format: 'critsec/maekawa@0' }],
    ['an extra field', { ...good, extra: 1 }],
    ['a fractional clock', { ...good, sn: 1.5 }],
    ['a negative tag', { ...good, requester: { ...good.requester, lastTag: -2 } }],
    ["P1's state", other(maekawa({ coterie: grid(4) }), 1, 4)],
    ['a state saved under another coterie', { ...good, quorum: [0, 1, 3] }],
    ['a state of another cluster size', other(maekawa({ coterie: grid(9) }), 0, 9)],
    ['InCS without every lock', { ...good, state: 'InCS', requester: { ...good.requester, waiting: false } }],
    ['a lock outside Q_0', { ...good, requester: { ...good.requester, locks: [3] } }],
    ['a lock held twice', { ...good, requester: { ...good.requester, locks: [1, 1] } }],
    ['a held lock marked failed', { ...good, requester: { ...good.requester, failed: [1] } }],
    ['an idle requester with locks', { ...good, requester: { ...good.requester, waiting: false } }],
    ['an unlocked arbiter with a queue', { ...good, arbiter: { ...good.arbiter, queue: [[1, 2, true]] } }],
    ['a holder outside R_0', { ...good, arbiter: { ...good.arbiter, grantedTo: 3, grantedReq: 1 } }],
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
    expect(rig(good).cs.durableState()).toEqual(good);
  });
});

describe('the descriptor', () => {
  it('says Maekawa supports crash recovery', () => {
    expect(maekawaDescriptor.crashRecovery).toBe(true);
  });
});
