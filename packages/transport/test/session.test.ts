import { createRng, ProtocolError, TransportError } from '@critsec/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionFrame } from '../src/session-frames.js';
import { ReliableLink } from '../src/session.js';

/** The project's one seeded PRNG (`createRng` of @critsec/core), as a `() => [0, 1)` draw. */
const rng = (seed: number): (() => number) => createRng(seed).next;

type Frame = SessionFrame<number>;

/**
 * Two ReliableLinks joined by a lossy "network": every transmitted frame lands in an in-flight
 * bag per direction; the schedule decides which frame arrives next (reordering), drops frames
 * and duplicates them.
 */
function lossyPair(
  opts: { maxOutOfOrder?: number; maxUnacked?: number; autoAck?: boolean; piggybackAcks?: boolean } = {},
) {
  const inFlight: [Frame[], Frame[]] = [[], []]; // [0]: towards a, [1]: towards b
  const delivered: [number[], number[]] = [[], []];
  const mk = (side: 0 | 1) =>
    new ReliableLink<number>({
      transmit: (f) => inFlight[1 - side]!.push(f),
      deliver: (p) => delivered[side].push(p),
      ...opts,
    });
  const a = mk(0);
  const b = mk(1);
  const links = [a, b] as const;
  return { a, b, links, inFlight, delivered };
}

/** Runs a random schedule; returns what each side sent and got. */
function runSchedule(seed: number, payloads: number, lossy = true) {
  const r = rng(seed);
  const { links, inFlight, delivered } = lossyPair({ maxOutOfOrder: 1 + Math.floor(r() * 16) });
  const sent: [number[], number[]] = [[], []];
  const pDrop = lossy ? r() * 0.4 : 0;
  const pDup = lossy ? r() * 0.3 : 0;
  let next = 0;
  let steps = 0;
  const step = () => {
    steps++;
    const x = r();
    if (x < 0.25 && next < payloads) {
      const side = r() < 0.5 ? 0 : 1;
      const p = next++;
      links[side].send(p);
      sent[side].push(p);
      return;
    }
    if (x < 0.3) {
      links[r() < 0.5 ? 0 : 1].retransmit();
      return;
    }
    const dir = r() < 0.5 ? 0 : 1;
    const bag = inFlight[dir]!;
    if (bag.length === 0) return;
    const i = Math.floor(r() * bag.length);
    const f = bag[i]!;
    const y = r();
    if (y < pDrop) {
      bag.splice(i, 1);
    } else if (y < pDrop + pDup) {
      links[dir].receive(structuredClone(f)); // keep it in flight too: a duplicate
    } else {
      bag.splice(i, 1);
      links[dir].receive(f);
    }
  };
  while (next < payloads) step();
  // Quiesce: no more loss; retransmit until everything is delivered and acknowledged.
  for (let round = 0; links[0].unacked + links[1].unacked > 0; round++) {
    if (round > 10_000) throw new Error(`seed ${seed}: did not quiesce`);
    if (inFlight[0]!.length + inFlight[1]!.length === 0) {
      links[0].retransmit();
      links[1].retransmit();
    }
    for (const dir of [0, 1] as const) {
      const bag = inFlight[dir]!;
      while (bag.length > 0) {
        const i = Math.floor(r() * bag.length);
        const [f] = bag.splice(i, 1);
        links[dir].receive(f);
      }
    }
  }
  return { sent, delivered, links, steps };
}

describe('ReliableLink (reliable FIFO session layer)', () => {
  it('delivers in order over a perfect path and frees acknowledged payloads', () => {
    const { a, b, inFlight, delivered } = lossyPair();
    for (let i = 0; i < 5; i++) a.send(i);
    expect(a.unacked).toBe(5);
    expect(inFlight[1]!.map((f) => (f.t === 'data' ? f.seq : -1))).toEqual([1, 2, 3, 4, 5]);
    for (const f of inFlight[1]!.splice(0)) b.receive(f);
    expect(delivered[1]).toEqual([0, 1, 2, 3, 4]);
    expect(b.nextExpected).toBe(6);
    // b answered every data frame with a cumulative ack; the last one frees everything.
    expect(inFlight[0]!.at(-1)).toEqual({ t: 'ack', ack: 5 });
    for (const f of inFlight[0]!.splice(0)) a.receive(f);
    expect(a.unacked).toBe(0);
    expect(a.stats).toMatchObject({ sent: 5, malformed: 0 });
    expect(b.stats).toMatchObject({ delivered: 5, duplicates: 0, outOfOrder: 0, acksSent: 5 });
  });

  it('buffers ahead-of-order frames, drops duplicates, and retransmits what is unacknowledged', () => {
    const { a, b, inFlight, delivered } = lossyPair();
    a.send(10);
    a.send(11);
    a.send(12);
    const [f1, f2, f3] = inFlight[1]!.splice(0);
    b.receive(f3);
    b.receive(f2);
    expect(delivered[1]).toEqual([]);
    expect(b.stats.outOfOrder).toBe(2);
    b.receive(f2);
    expect(b.stats.duplicates).toBe(1);
    b.receive(f1);
    expect(delivered[1]).toEqual([10, 11, 12]);
    b.receive(f1);
    expect(b.stats.duplicates).toBe(2);
    expect(delivered[1]).toEqual([10, 11, 12]);
    // All acks lost: retransmit resends all three, b drops them as duplicates and re-acks.
    inFlight[0]!.length = 0;
    a.retransmit();
    expect(a.stats.retransmitted).toBe(3);
    for (const f of inFlight[1]!.splice(0)) b.receive(f);
    expect(delivered[1]).toEqual([10, 11, 12]);
    for (const f of inFlight[0]!.splice(0)) a.receive(f);
    expect(a.unacked).toBe(0);
    a.retransmit(); // nothing left
    expect(inFlight[1]).toHaveLength(0);
  });

  it('delivers in order, exactly once, under 3000 seeded random schedules of loss, duplication and reordering', () => {
    let totalSteps = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const { sent, delivered, links, steps } = runSchedule(seed, 40);
      totalSteps += steps;
      // A failure message carries the seed so the schedule replays exactly.
      expect(delivered[1], `seed ${seed}`).toEqual(sent[0]);
      expect(delivered[0], `seed ${seed}`).toEqual(sent[1]);
      expect(links[0].unacked + links[1].unacked).toBe(0);
    }
    expect(totalSteps).toBeGreaterThan(3000 * 40);
  });

  it('the random schedules really do lose, duplicate and reorder frames', () => {
    const sum = { duplicates: 0, outOfOrder: 0, retransmitted: 0, overflow: 0 };
    for (let seed = 1; seed <= 200; seed++) {
      const { links } = runSchedule(seed, 40);
      for (const l of links) {
        sum.duplicates += l.stats.duplicates;
        sum.outOfOrder += l.stats.outOfOrder;
        sum.retransmitted += l.stats.retransmitted;
        sum.overflow += l.stats.overflow;
      }
    }
    expect(sum.duplicates).toBeGreaterThan(100);
    expect(sum.outOfOrder).toBeGreaterThan(100);
    expect(sum.retransmitted).toBeGreaterThan(100);
    expect(sum.overflow).toBeGreaterThan(0);
  });

  it('property: any interleaving of sends, losses, duplicates, reorderings and retransmits delivers exactly the sent sequence', () => {
    const command = fc.oneof(
      fc.record({ k: fc.constant('send' as const), side: fc.integer({ min: 0, max: 1 }) }),
      fc.record({
        k: fc.constantFrom('deliver' as const, 'drop' as const, 'dup' as const),
        dir: fc.integer({ min: 0, max: 1 }),
        pick: fc.nat(),
      }),
      fc.record({ k: fc.constant('retransmit' as const), side: fc.integer({ min: 0, max: 1 }) }),
      fc.record({ k: fc.constant('flush' as const), side: fc.integer({ min: 0, max: 1 }) }),
    );
    fc.assert(
      fc.property(
        fc.array(command, { maxLength: 300 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        fc.boolean(),
        (cmds, maxOutOfOrder, autoAck, piggybackAcks) => {
          const { links, inFlight, delivered } = lossyPair({ maxOutOfOrder, autoAck, piggybackAcks });
          const sent: [number[], number[]] = [[], []];
          let n = 0;
          for (const c of cmds) {
            if (c.k === 'send') {
              links[c.side as 0 | 1].send(n);
              sent[c.side as 0 | 1].push(n++);
            } else if (c.k === 'retransmit') links[c.side as 0 | 1].retransmit();
            else if (c.k === 'flush') links[c.side as 0 | 1].flushAck();
            else {
              const bag = inFlight[c.dir]!;
              if (bag.length === 0) continue;
              const i = c.pick % bag.length;
              if (c.k === 'dup') links[c.dir as 0 | 1].receive(bag[i]);
              else {
                const [f] = bag.splice(i, 1);
                if (c.k === 'deliver') links[c.dir as 0 | 1].receive(f);
              }
            }
            // Safety at every step: what was delivered is a prefix of what was sent.
            expect(sent[0].slice(0, delivered[1].length)).toEqual(delivered[1]);
            expect(sent[1].slice(0, delivered[0].length)).toEqual(delivered[0]);
          }
          // Liveness once the path is reliable: FIFO delivery of everything in flight + resends.
          for (let round = 0; round < 50 && links[0].unacked + links[1].unacked > 0; round++) {
            links[0].retransmit();
            links[1].retransmit();
            for (let moved = true; moved; ) {
              moved = false;
              for (const dir of [0, 1] as const) {
                for (const f of inFlight[dir]!.splice(0)) {
                  moved = true;
                  links[dir].receive(f);
                }
                links[dir].flushAck();
              }
            }
          }
          expect(delivered[1]).toEqual(sent[0]);
          expect(delivered[0]).toEqual(sent[1]);
          expect(links[0].unacked + links[1].unacked).toBe(0);
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  it('piggybacks the cumulative ack on data frames: a request/reply exchange needs no ack frame', () => {
    const { a, b, inFlight, delivered } = lossyPair({ autoAck: false, piggybackAcks: true });
    for (let round = 1; round <= 3; round++) {
      a.send(round); // the request carries a's ack of b's previous reply
      for (const f of inFlight[1]!.splice(0)) b.receive(f);
      expect(b.ackPending).toBe(true);
      b.send(-round); // the reply carries b's ack of the request
      expect(b.ackPending).toBe(false);
      for (const f of inFlight[0]!.splice(0)) a.receive(f);
      expect(a.unacked).toBe(0);
      expect(b.unacked).toBe(1); // until a's next data frame (or flushAck)
    }
    expect(delivered).toEqual([
      [-1, -2, -3],
      [1, 2, 3],
    ]);
    expect(a.stats.acksSent + b.stats.acksSent).toBe(0);
    a.flushAck(); // nothing goes back any more: the owner's delayed ack frame
    expect(inFlight[1]).toEqual([{ t: 'ack', ack: 3 }]);
    for (const f of inFlight[1]!.splice(0)) b.receive(f);
    expect(b.unacked).toBe(0);
    // Resent frames carry the current ack too.
    a.send(4);
    inFlight[1]!.length = 0; // lost
    a.retransmit();
    expect(inFlight[1]).toEqual([{ t: 'data', seq: 4, p: 4, ack: 3 }]);
  });

  it('a reply to the first of several payloads delivered at once leaves the ack of the rest owed', () => {
    const inFlight: Frame[] = [];
    const a = new ReliableLink<number>({
      transmit: () => {},
      deliver: () => {},
      autoAck: false,
      piggybackAcks: true,
    });
    const b: ReliableLink<number> = new ReliableLink<number>({
      transmit: (f) => inFlight.push(f),
      deliver: (p) => {
        if (p === 1) b.send(100); // replies to the first only
      },
      autoAck: false,
      piggybackAcks: true,
    });
    for (let i = 1; i <= 3; i++) a.send(i);
    b.receive({ t: 'data', seq: 3, p: 3 });
    b.receive({ t: 'data', seq: 2, p: 2 });
    b.receive({ t: 'data', seq: 1, p: 1 }); // delivers 1 (reply), then 2 and 3
    expect(inFlight).toEqual([{ t: 'data', seq: 1, p: 100, ack: 1 }]);
    expect(b.ackPending).toBe(true);
    b.flushAck();
    expect(inFlight.at(-1)).toEqual({ t: 'ack', ack: 3 });
    expect(a.unacked).toBe(3);
  });

  it('without piggybackAcks data frames carry no ack (the simulator traces rely on it), but one is read', () => {
    const { a, b, inFlight } = lossyPair();
    a.send(1);
    expect(inFlight[1]).toEqual([{ t: 'data', seq: 1, p: 1 }]);
    b.receive(inFlight[1]!.pop());
    inFlight[0]!.length = 0; // b's ack lost
    b.receive({ t: 'data', seq: 1, p: 2, ack: 0 }); // b has sent nothing: ack 0 is the only valid one
    expect(b.stats.malformed).toBe(0);
    a.receive({ t: 'data', seq: 1, p: 7, ack: 1 });
    expect(a.unacked).toBe(0);
  });

  it('drops a data frame whose piggybacked ack is impossible, as malformed', () => {
    const { a, b, delivered } = lossyPair({ piggybackAcks: true });
    a.send(1);
    for (const ack of [2, -1, 0.5, '1', null, Number.MAX_SAFE_INTEGER + 1]) {
      a.receive({ t: 'data', seq: 1, p: 9, ack });
    }
    expect(a.stats.malformed).toBe(6);
    expect(delivered[0]).toEqual([]);
    expect(a.unacked).toBe(1);
    expect(b.nextExpected).toBe(1);
  });

  it('counts and ignores malformed frames without throwing or changing state', () => {
    const { a, b, inFlight, delivered } = lossyPair();
    a.send(1);
    const junk: unknown[] = [
      null,
      undefined,
      42,
      'data',
      [],
      [{ t: 'data', seq: 1, p: 1 }],
      {},
      { t: 'nope' },
      { t: 'data' },
      { t: 'data', seq: 1 },
      { t: 'data', seq: 0, p: 1 },
      { t: 'data', seq: -1, p: 1 },
      { t: 'data', seq: 1.5, p: 1 },
      { t: 'data', seq: '1', p: 1 },
      { t: 'data', seq: Number.NaN, p: 1 },
      { t: 'data', seq: 2 ** 60, p: 1 },
      { t: 'ack' },
      { t: 'ack', ack: -1 },
      { t: 'ack', ack: 0.5 },
      { t: 'ack', ack: 2 }, // acknowledges a seq that was never sent
      { t: 'ack', ack: Number.POSITIVE_INFINITY },
      { t: 'hello', session: 'x', next: 1, peer: null }, // hellos go to handshake(), not receive()
    ];
    for (const j of junk) expect(() => a.receive(j)).not.toThrow();
    expect(a.stats.malformed).toBe(junk.length);
    expect(a.unacked).toBe(1);
    expect(a.nextExpected).toBe(1);
    expect(delivered[0]).toEqual([]);
    // Still works afterwards.
    for (const f of inFlight[1]!.splice(0)) b.receive(f);
    for (const f of inFlight[0]!.splice(0)) a.receive(f);
    expect(delivered[1]).toEqual([1]);
    expect(a.unacked).toBe(0);
  });

  it('property: random garbage never throws and never delivers anything', () => {
    const { a, delivered } = lossyPair();
    fc.assert(
      fc.property(fc.anything(), (x) => {
        const frame = x as { t?: unknown; seq?: unknown };
        a.receive(x);
        // Only a well-formed data frame with seq 1 could deliver; garbage cannot.
        if (!(frame && typeof frame === 'object' && frame.t === 'data' && frame.seq === 1)) {
          expect(delivered[0]).toEqual([]);
        }
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('bounds unacknowledged payloads: send beyond maxUnacked throws a TransportError saying so', () => {
    const { a, b, inFlight } = lossyPair({ maxUnacked: 100 });
    for (let i = 0; i < 100; i++) a.send(i);
    expect(() => a.send(100)).toThrow(TransportError);
    expect(() => a.send(100)).toThrow(/100 payloads .* still unacknowledged.*maxUnacked = 100/);
    expect(a.unacked).toBe(100);
    expect(a.stats.sent).toBe(100);
    // Acks free room again.
    for (const f of inFlight[1]!.splice(0, 10)) b.receive(f);
    for (const f of inFlight[0]!.splice(0)) a.receive(f);
    expect(a.unacked).toBe(90);
    expect(() => a.send(100)).not.toThrow();
  });

  it('bounds ahead-of-order frames at the receiver: the excess is dropped and resent later', () => {
    const { a, b, inFlight, delivered } = lossyPair({ maxOutOfOrder: 4 });
    for (let i = 0; i < 20; i++) a.send(i);
    const frames = inFlight[1]!.splice(0);
    for (const f of frames.slice(1)) b.receive(f); // seq 1 lost
    expect(b.bufferedOutOfOrder).toBe(4);
    expect(b.stats.overflow).toBe(15);
    inFlight[0]!.length = 0;
    for (let round = 0; a.unacked > 0 && round < 20; round++) {
      a.retransmit();
      for (const f of inFlight[1]!.splice(0)) b.receive(f);
      for (const f of inFlight[0]!.splice(0)) a.receive(f);
    }
    expect(delivered[1]).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(b.bufferedOutOfOrder).toBe(0);
  });

  it('keeps memory flat over a long run: the send buffer is compacted as acks arrive', () => {
    const { a, b, inFlight } = lossyPair({ maxUnacked: 50 });
    for (let i = 0; i < 200_000; i++) {
      a.send(i);
      if (i % 40 === 39) {
        for (const f of inFlight[1]!.splice(0)) b.receive(f);
        for (const f of inFlight[0]!.splice(0)) a.receive(f);
        expect(a.unacked).toBe(0);
      }
    }
    expect(b.nextExpected).toBe(200_001);
  });

  it('rejects bad bounds and session ids at construction', () => {
    const base = { transmit() {}, deliver() {} };
    expect(() => new ReliableLink({ ...base, maxUnacked: 0 })).toThrow(
      /maxUnacked must be a positive integer/,
    );
    expect(() => new ReliableLink({ ...base, maxOutOfOrder: 1.5 })).toThrow(TransportError);
    expect(() => new ReliableLink({ ...base, session: '' })).toThrow(/session must be a string/);
    expect(() => new ReliableLink({ ...base, onPeerRestart: 'ignore' as 'reset' })).toThrow(/onPeerRestart/);
  });

  it('a throwing deliver still leaves the link consistent, then rethrows', () => {
    const out: number[] = [];
    const frames: Frame[] = [];
    const b = new ReliableLink<number>({
      transmit: (f) => frames.push(f),
      deliver: (p) => {
        out.push(p);
        if (p === 2) throw new Error('handler bug');
      },
    });
    b.receive({ t: 'data', seq: 3, p: 3 });
    b.receive({ t: 'data', seq: 2, p: 2 });
    expect(() => b.receive({ t: 'data', seq: 1, p: 1 })).toThrow('handler bug');
    expect(out).toEqual([1, 2, 3]);
    expect(b.nextExpected).toBe(4);
    expect(frames.at(-1)).toEqual({ t: 'ack', ack: 3 });
  });
});

describe('ReliableLink resume handshake (reconnection) and session identity', () => {
  /** A connection that can be cut: cutting loses everything in flight. */
  function connectedPair(onPeerRestart: 'refuse' | 'reset' = 'refuse') {
    const inFlight: [Frame[], Frame[]] = [[], []];
    const delivered: [number[], number[]] = [[], []];
    let up = true;
    const mk = (side: 0 | 1, session?: string) =>
      new ReliableLink<number>({
        transmit: (f) => {
          if (up) inFlight[1 - side]!.push(f);
        },
        deliver: (p) => delivered[side].push(p),
        onPeerRestart,
        ...(session === undefined ? {} : { session }),
      });
    const links: [ReliableLink<number>, ReliableLink<number>] = [mk(0, 'A1'), mk(1, 'B1')];
    const pump = (r?: () => number) => {
      for (let moved = true; moved; ) {
        moved = false;
        for (const dir of [0, 1] as const) {
          const bag = inFlight[dir]!;
          while (bag.length > 0) {
            // FIFO within a connection (TCP); r, if given, decides to stop early.
            if (r && r() < 0.1) break;
            moved = true;
            links[dir].receive(bag.shift());
          }
        }
        if (r) break;
      }
    };
    const reconnect = () => {
      up = true;
      const h0 = links[0].hello();
      const h1 = links[1].hello();
      return [links[0].handshake(h1), links[1].handshake(h0)] as const;
    };
    const cut = () => {
      up = false;
      inFlight[0]!.length = 0;
      inFlight[1]!.length = 0;
    };
    return { links, inFlight, delivered, pump, reconnect, cut, mk };
  }

  it('first contact adopts the peer session; a cut connection resumes with nothing lost or duplicated', () => {
    const { links, delivered, pump, reconnect, cut } = connectedPair();
    expect(reconnect().map((r) => r.ok && r.kind)).toEqual(['new', 'new']);
    expect(links[0].peerSession).toBe('B1');
    for (let i = 0; i < 10; i++) links[0].send(i);
    pump();
    for (let i = 10; i < 20; i++) links[0].send(i); // lost with the connection
    cut();
    for (let i = 20; i < 25; i++) links[0].send(i); // sent while disconnected
    expect(links[0].unacked).toBe(15);
    const [r0] = reconnect();
    expect(r0).toEqual({ ok: true, kind: 'resumed', resent: 15 });
    pump();
    expect(delivered[1]).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(links[0].unacked).toBe(0);
  });

  it('resumes correctly under thousands of seeded random connection cuts', () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const r = rng(seed);
      const { links, delivered, pump, reconnect, cut } = connectedPair();
      reconnect();
      const sent: [number[], number[]] = [[], []];
      for (let i = 0; i < 60; i++) {
        const side = r() < 0.5 ? 0 : 1;
        links[side].send(i);
        sent[side].push(i);
        if (r() < 0.5) pump(r);
        if (r() < 0.15) {
          cut();
          const res = reconnect();
          expect(
            res.every((x) => x.ok && x.kind === 'resumed'),
            `seed ${seed}`,
          ).toBe(true);
        }
      }
      pump();
      expect(delivered[1], `seed ${seed}`).toEqual(sent[0]);
      expect(delivered[0], `seed ${seed}`).toEqual(sent[1]);
    }
  });

  it('resume() rejects a resume point beyond what was sent', () => {
    const { links } = connectedPair();
    links[0].send(1);
    expect(() => links[0].resume(3)).toThrow(ProtocolError);
    expect(() => links[0].resume(0)).toThrow(/valid resume point is an integer in 1 … 2/);
    expect(links[0].resume(2)).toBe(0);
    expect(links[0].unacked).toBe(0);
  });

  it('detects a restarted peer and, by default, refuses it instead of mis-sequencing', () => {
    const { links, delivered, pump, reconnect, cut, mk } = connectedPair('refuse');
    reconnect();
    for (let i = 0; i < 5; i++) links[0].send(i);
    pump();
    links[0].send(5); // never reaches the old B
    cut();
    // B is killed and restarted: fresh state, new session.
    links[1] = mk(1, 'B2');
    delivered[1].length = 0;
    links[1].send(100);
    const [r0, r1] = reconnect();
    expect(r0.ok).toBe(false);
    expect(!r0.ok && r0.kind).toBe('peer-restarted');
    expect(!r0.ok && r0.reason).toMatch(/session B1 is now B2.*assume no crashes without their state/);
    // It must not send operators to 'reset', which deadlocks critsec's algorithms.
    expect(!r0.ok && r0.reason).not.toMatch(/use onPeerRestart: 'reset'/);
    // The way out: the member's store (the same session resumes), or a cluster restart if it is lost.
    expect(!r0.ok && r0.reason).toMatch(
      /restore the peer from its member's store \(the same session resumes\)/,
    );
    expect(!r0.ok && r0.reason).toMatch(/rejoins as new only after the whole cluster is restarted/);
    // A is unchanged: it still holds the old session's state.
    expect(links[0].peerSession).toBe('B1');
    expect(links[0].unacked).toBe(1);
    expect(links[0].nextExpected).toBe(1);
    // The fresh B adopted A as new and (since A's hello is about an older B) resent from seq 1;
    // the owner closes the connection on A's refusal, so nothing is delivered to A.
    expect(r1).toEqual({ ok: true, kind: 'new', resent: 1 });
  });

  it("with onPeerRestart: 'reset', a restarted peer starts a new session from seq 1 on both sides", () => {
    const { links, delivered, pump, reconnect, cut, mk } = connectedPair('reset');
    reconnect();
    for (let i = 0; i < 5; i++) links[0].send(i);
    links[1].send(50);
    pump();
    links[0].send(5);
    links[0].send(6);
    cut();
    links[1] = mk(1, 'B2');
    const before = delivered[0].length;
    links[1].send(100);
    links[1].send(101);
    const [r0, r1] = reconnect();
    expect(r0).toEqual({ ok: true, kind: 'reset', resent: 0 });
    expect(r1).toEqual({ ok: true, kind: 'new', resent: 2 });
    expect(links[0].stats.discarded).toBe(2);
    expect(links[0].stats.resets).toBe(1);
    pump();
    expect(delivered[0].slice(before)).toEqual([100, 101]);
    links[0].send(7);
    pump();
    expect(delivered[1].slice(-1)).toEqual([7]);
    expect(links[1].nextExpected).toBe(2);
  });

  it('the restarted side itself ignores the stale resume point of a peer that knew its earlier incarnation', () => {
    const { links, pump, reconnect, cut, mk, delivered } = connectedPair('reset');
    reconnect();
    for (let i = 0; i < 30; i++) links[0].send(i);
    pump();
    cut();
    // A restarts; A's fresh link sends 3 payloads. B's hello says next = 31, about A1: A2 must
    // not take it as a resume point (it would free or reject its new frames).
    links[0] = mk(0, 'A2');
    for (let i = 0; i < 3; i++) links[0].send(1000 + i);
    delivered[1].length = 0;
    const [r0, r1] = reconnect();
    expect(r0.ok && r0.kind).toBe('new');
    expect(r1.ok && r1.kind).toBe('reset');
    pump();
    expect(delivered[1]).toEqual([1000, 1001, 1002]);
  });

  it('handshake with resend: false frees what the peer has and leaves resending to the owner', () => {
    const { links, inFlight, reconnect, pump, cut, delivered } = connectedPair();
    reconnect();
    for (let i = 0; i < 4; i++) links[0].send(i);
    inFlight[1]!.splice(2); // frames 3 and 4 are lost with the connection
    pump();
    cut();
    const r = links[0].handshake(links[1].hello(), { resend: false });
    expect(r).toEqual({ ok: true, kind: 'resumed', resent: 0 });
    expect(links[0].unacked).toBe(2);
    expect(inFlight[1]).toHaveLength(0);
    reconnect();
    pump();
    expect(delivered[1]).toEqual([0, 1, 2, 3]);
  });

  it('refuses malformed or inconsistent hellos and counts them', () => {
    const { links } = connectedPair();
    for (const h of [null, {}, { t: 'hello' }, { t: 'hello', session: '', next: 1, peer: null }]) {
      const r = links[0].handshake(h);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.kind).toBe('malformed');
    }
    expect(links[0].handshake({ t: 'hello', session: 'x'.repeat(65), next: 1, peer: null }).ok).toBe(false);
    expect(links[0].handshake({ t: 'hello', session: 'B1', next: 0, peer: null }).ok).toBe(false);
    // Claims to have received 7 frames of our session A1, which sent none.
    const r = links[0].handshake({ t: 'hello', session: 'B1', next: 8, peer: 'A1' });
    expect(!r.ok && r.kind).toBe('inconsistent');
    expect(links[0].peerSession).toBeUndefined();
    expect(links[0].stats.malformed).toBe(7);
  });
});
