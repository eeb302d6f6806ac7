import { TransportError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import type { LinkState, SessionFrame } from '../src/session-frames.js';
import { ReliableLink } from '../src/session.js';
import { expectExactlyOnce } from './restart-harness.js';

type Frame = SessionFrame<number>;

/** A link whose frames are collected, and what it delivered. */
function collecting(opts: Partial<ConstructorParameters<typeof ReliableLink<number>>[0]> = {}) {
  const out: Frame[] = [];
  const got: number[] = [];
  const link = new ReliableLink<number>({
    transmit: (f) => out.push(f),
    deliver: (p) => got.push(p),
    ...opts,
  });
  return { link, out, got };
}

describe('ReliableLink crash recovery: durableState and the state option', () => {
  it('a JSON round trip of durableState() rebuilds the same link; ahead-of-order frames are not kept', () => {
    const a = collecting({ session: 'A1' });
    const b = collecting({ session: 'B1' });
    a.link.handshake(b.link.hello());
    for (let i = 0; i < 4; i++) a.link.send(i);
    b.link.receive({ t: 'data', seq: 1, p: 70 });
    b.link.receive({ t: 'data', seq: 3, p: 72 }); // ahead of order: buffered, not persisted
    a.link.receive(b.out.at(-1)); // b acknowledged 1 (its last ack frame)
    for (let i = 0; i < 3; i++) a.link.receive({ t: 'data', seq: i + 1, p: 50 + i });
    const st = JSON.parse(JSON.stringify(b.link.durableState())) as LinkState<number>;
    expect(st).toEqual({
      v: 1,
      session: 'B1',
      peer: null,
      nextExpected: 2,
      nextSeq: 1,
      ackedUpTo: 0,
      unacked: [],
    });
    const sa = a.link.durableState();
    expect(sa).toEqual({
      v: 1,
      session: 'A1',
      peer: 'B1',
      nextExpected: 4,
      nextSeq: 5,
      ackedUpTo: 1,
      unacked: [
        { seq: 2, p: 1 },
        { seq: 3, p: 2 },
        { seq: 4, p: 3 },
      ],
    });
    const a2 = collecting({ state: JSON.parse(JSON.stringify(sa)) as LinkState<number> });
    expect(a2.link.session).toBe('A1');
    expect(a2.link.peerSession).toBe('B1');
    expect([a2.link.nextExpected, a2.link.nextSeq, a2.link.unacked]).toEqual([4, 5, 3]);
    expect(a2.link.durableState()).toEqual(sa);
    a2.link.retransmit();
    expect(a2.out.map((f) => (f.t === 'data' ? [f.seq, f.p] : f))).toEqual([
      [2, 1],
      [3, 2],
      [4, 3],
    ]);
    expect(collecting({ state: st }).link.bufferedOutOfOrder).toBe(0);
  });

  it('refuses a malformed state with a TransportError naming the field and the way out', () => {
    const good = {
      v: 1,
      session: 'A1',
      peer: 'B1',
      nextExpected: 3,
      nextSeq: 3,
      ackedUpTo: 1,
      unacked: [{ seq: 2, p: 9 }],
    };
    expect(() => collecting({ state: good as LinkState<number> })).not.toThrow();
    const bad: [unknown, RegExp][] = [
      [null, /is not an object/],
      [[good], /is not an object/],
      [{ ...good, v: 2 }, /version 2, expected 1/],
      [{ ...good, session: '' }, /no valid session id/],
      [{ ...good, peer: 7 }, /peer session/],
      [{ ...good, nextExpected: 0 }, /nextExpected/],
      [{ ...good, nextSeq: 1.5 }, /nextSeq/],
      [{ ...good, ackedUpTo: 3 }, /ackedUpTo outside 0 … nextSeq − 1/],
      [{ ...good, ackedUpTo: -1 }, /ackedUpTo/],
      [{ ...good, unacked: [] }, /does not hold the 1 unacknowledged payloads/],
      [{ ...good, unacked: [{ seq: 3, p: 9 }] }, /malformed unacknowledged payload at index 0/],
      [{ ...good, unacked: [{ seq: 2 }] }, /malformed unacknowledged payload/],
    ];
    for (const [state, why] of bad) {
      let err: unknown;
      try {
        collecting({ state: state as LinkState<number> });
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(state)).toBeInstanceOf(TransportError);
      expect((err as Error).message).toMatch(why);
      expect((err as Error).message).toMatch(/restore the member from the record its own store committed/);
      expect((err as Error).message).toMatch(/rejoin as new, and only after the cluster is restarted/);
    }
    expect(() => collecting({ state: good as LinkState<number>, session: 'A2' })).toThrow(
      /belongs to session A1, not A2/,
    );
    expect(collecting({ state: good as LinkState<number>, session: 'A1' }).link.session).toBe('A1');
  });
});

describe('ReliableLink ackOnCommit: only what is durable is acknowledged', () => {
  it('acknowledges nothing beyond the committed point: no ack frame, piggybacked ack or hello next', () => {
    const b = collecting({ session: 'B1', ackOnCommit: true, piggybackAcks: true });
    b.link.handshake({ t: 'hello', session: 'A1', next: 1, peer: null });
    b.link.receive({ t: 'data', seq: 1, p: 10 });
    b.link.receive({ t: 'data', seq: 2, p: 11 });
    expect(b.got).toEqual([10, 11]);
    expect(b.out).toEqual([
      { t: 'ack', ack: 0 },
      { t: 'ack', ack: 0 },
    ]);
    const point = b.link.commitPoint();
    expect(point).toEqual({ nextExpected: 3, nextSeq: 1 });
    b.link.receive({ t: 'data', seq: 3, p: 12 }); // after the point
    b.link.send(99);
    expect(b.out.at(-1)).toEqual({ t: 'data', seq: 1, p: 99, ack: 0 }); // not committed yet
    expect(b.link.hello().next).toBe(1);
    expect(b.link.durableState()).toMatchObject({ nextExpected: 3, nextSeq: 1, unacked: [] });
    b.out.length = 0;
    b.link.acknowledgeCommitted(point);
    expect(b.out).toEqual([{ t: 'ack', ack: 2 }]); // up to the point, not seq 3
    expect(b.link.hello().next).toBe(3);
    b.link.acknowledgeCommitted(point); // again: nothing new
    b.link.acknowledgeCommitted({ nextExpected: 2, nextSeq: 1 }); // older: nothing
    expect(b.out).toHaveLength(1);
    b.link.acknowledgeCommitted(b.link.commitPoint());
    expect(b.out.at(-1)).toEqual({ t: 'ack', ack: 3 });
    expect(b.link.ackPending).toBe(false);
    expect(b.link.stats.acksSent).toBe(5); // 3 answers to data (ack 0) + 2 after commits
  });

  it('retransmits only payloads sent before the committed point (later ones are in the outbox)', () => {
    const a = collecting({ session: 'A1', ackOnCommit: true });
    a.link.send(1);
    a.link.send(2);
    const point = a.link.commitPoint();
    a.link.send(3);
    a.out.length = 0;
    a.link.retransmit();
    expect(a.out).toEqual([]);
    a.link.acknowledgeCommitted(point);
    a.link.retransmit();
    expect(a.out.map((f) => f.t === 'data' && f.seq)).toEqual([1, 2]);
    expect(a.link.durableState().unacked).toEqual([
      { seq: 1, p: 1 },
      { seq: 2, p: 2 },
    ]);
  });

  it('acknowledgeCommitted needs ackOnCommit and a point the link reached', () => {
    const plain = collecting();
    expect(() => plain.link.acknowledgeCommitted(plain.link.commitPoint())).toThrow(
      /needs ackOnCommit: true/,
    );
    const d = collecting({ ackOnCommit: true });
    expect(() => d.link.acknowledgeCommitted({ nextExpected: 2, nextSeq: 1 })).toThrow(TransportError);
    expect(() => d.link.acknowledgeCommitted({ nextExpected: 1, nextSeq: 2 })).toThrow(/beyond this link/);
    expect(() => d.link.acknowledgeCommitted({} as never)).toThrow(
      /a commit point is \{nextExpected, nextSeq\}/,
    );
  });

  it('without ackOnCommit nothing changes: acks, hellos and durableState are as of now', () => {
    const b = collecting({ session: 'B1', piggybackAcks: true });
    b.link.receive({ t: 'data', seq: 1, p: 10 });
    b.link.commitPoint(); // harmless without ackOnCommit
    b.link.receive({ t: 'data', seq: 2, p: 11 });
    b.link.send(5);
    expect(b.out).toEqual([
      { t: 'ack', ack: 1 },
      { t: 'ack', ack: 2 },
      { t: 'data', seq: 1, p: 5, ack: 2 },
    ]);
    expect(b.link.hello().next).toBe(3);
    expect(b.link.durableState()).toMatchObject({ nextExpected: 3, nextSeq: 2 });
  });
});

describe('ReliableLink restart and resume (transactional outbox)', () => {
  it('a payload delivered but not committed is redelivered after a crash; one committed but not sent is resent', () => {
    // A (durable) and B (plain) over a perfect path.
    const a = collecting({ session: 'A1', ackOnCommit: true });
    const b = collecting({ session: 'B1' });
    a.link.handshake(b.link.hello());
    b.link.handshake(a.link.hello());
    let store = JSON.stringify({ link: a.link.durableState(), got: a.got });
    b.link.send(1);
    b.link.send(2);
    for (const f of b.out.splice(0)) a.link.receive(f);
    expect(a.got).toEqual([1, 2]);
    a.link.send(100); // this turn's frame, held in the outbox
    a.link.commitPoint(); // the end of the turn: stage ...
    store = JSON.stringify({ link: a.link.durableState(), got: a.got }); // committed ...
    a.out.length = 0; // ... and A crashes before releasing the outbox or acknowledging
    b.link.send(3);
    for (const f of b.out.splice(0)) a.link.receive(f); // delivered, never committed
    expect(a.got).toEqual([1, 2, 3]);
    expect(a.out.every((f) => f.t !== 'ack' || f.ack === 0)).toBe(true);
    // Restart from the store.
    const rec = JSON.parse(store) as { link: LinkState<number>; got: number[] };
    const a2 = collecting({ state: rec.link, ackOnCommit: true });
    a2.got.push(...rec.got);
    const [r0, r1] = [a2.link.handshake(b.link.hello()), b.link.handshake(a2.link.hello())];
    expect(r0).toEqual({ ok: true, kind: 'resumed', resent: 1 }); // 100, from the restored window
    expect(r1).toEqual({ ok: true, kind: 'resumed', resent: 1 }); // 3: delivered, never acknowledged
    for (const f of b.out.splice(0)) a2.link.receive(f);
    for (const f of a2.out.splice(0)) b.link.receive(f);
    expect(a2.got).toEqual([1, 2, 3]);
    expect(b.got).toEqual([100]);
  });

  it('delivers exactly once, in order, across random crashes, restarts and a lossy path (1000 seeds)', () => {
    const sum = { crashes: 0, uncommittedDeliveries: 0, committedUnreleased: 0, steps: 0 };
    for (let seed = 1; seed <= 1000; seed++) {
      const run = expectExactlyOnce(seed, 30);
      sum.crashes += run.crashes;
      sum.uncommittedDeliveries += run.uncommittedDeliveries;
      sum.committedUnreleased += run.committedUnreleased;
      sum.steps += run.steps;
    }
    // The hard cases happened, often.
    expect(sum.crashes).toBeGreaterThan(1000);
    expect(sum.uncommittedDeliveries).toBeGreaterThan(500);
    expect(sum.committedUnreleased).toBeGreaterThan(100);
  });

  it('keeps refusing a peer that lost its store or restored another incarnation, naming the way out', () => {
    const a = collecting({ session: 'A1' });
    const b = collecting({ session: 'B1', ackOnCommit: true });
    a.link.handshake(b.link.hello());
    b.link.handshake(a.link.hello());
    b.link.commitPoint();
    const stored = JSON.stringify(b.link.durableState());
    // B's store is lost: it starts fresh, under a new session.
    const lost = collecting({ session: 'B2', ackOnCommit: true });
    const r = a.link.handshake(lost.link.hello());
    expect(r.ok).toBe(false);
    expect(!r.ok && r.kind).toBe('peer-restarted');
    expect(!r.ok && r.reason).toMatch(/session B1 is now B2/);
    expect(!r.ok && r.reason).toMatch(/restore the peer from its member's store/);
    expect(!r.ok && r.reason).toMatch(
      /lost store means the member rejoins as new only after the whole cluster/,
    );
    // B restored from a store of another incarnation (B0): refused the same way.
    const other = { ...(JSON.parse(stored) as LinkState<number>), session: 'B0' };
    const r2 = a.link.handshake(collecting({ state: other }).link.hello());
    expect(!r2.ok && r2.kind).toBe('peer-restarted');
    // B restored from its own store: resumed.
    expect(a.link.handshake(collecting({ state: JSON.parse(stored) }).link.hello())).toMatchObject({
      ok: true,
      kind: 'resumed',
    });
  });

  it('refuses a restored state older than what the peer already got (a store rolled back) as inconsistent', () => {
    const a = collecting({ session: 'A1' });
    const b = collecting({ session: 'B1' });
    a.link.handshake(b.link.hello());
    b.link.handshake(a.link.hello());
    const old = a.link.durableState();
    a.link.send(1);
    for (const f of a.out.splice(0)) b.link.receive(f);
    const stale = collecting({ state: old });
    const r = stale.link.handshake(b.link.hello());
    expect(!r.ok && r.kind).toBe('inconsistent');
  });
});
