/**
 * Crash-and-restart schedules for the session layer (issue 27), shared by the fast test and its
 * `*.long.test.ts`: two {@link ReliableLink}s over a lossy, duplicating, reordering frame path;
 * a *durable* side follows the transactional outbox (per turn: stage its link state and its
 * application state in one record, commit it, only then release the turn's frames and
 * acknowledge) and crashes at random points — its link object, its unreleased frames and its
 * commits in flight are discarded, and it restarts from its last committed record.
 */
import { createRng } from '@critsec/core';
import { expect } from 'vitest';
import type { CommitPoint, SessionFrame } from '../src/session-frames.js';
import { ReliableLink } from '../src/session.js';

type Frame = SessionFrame<number>;

/** A side's application state: what it sent (values) and got, durable with its link. */
interface App {
  sent: number[];
  got: number[];
  incarnation: number;
}

interface Side {
  readonly index: 0 | 1;
  readonly durable: boolean;
  link: ReliableLink<number>;
  app: App;
  /** Frames transmitted this turn, held until the turn's record is committed. */
  pending: Frame[];
  /** Records staged, their commits in flight (resolving in order). */
  staging: { point: CommitPoint; record: string; outbox: Frame[] }[];
  /** The last committed record (JSON). */
  store: string;
  /** The `nextExpected` of the link state in `store`. */
  storedNext: number;
}

/** What one schedule did (the counters give the test its teeth: the hard cases did happen). */
export interface RestartRun {
  readonly sides: readonly Side[];
  /** Crashes. */
  crashes: number;
  /** Payloads a crashed side had delivered but not committed (they must come again). */
  uncommittedDeliveries: number;
  /** Data frames a crashed side had committed but not released (resent from the restored window). */
  committedUnreleased: number;
  /** Steps taken. */
  steps: number;
}

/** Settings drawn per seed. */
function draw(r: () => number) {
  return {
    pDrop: r() * 0.3,
    pDup: r() * 0.2,
    pCrash: 0.004 + r() * 0.016,
    autoAck: r() < 0.5,
    piggybackAcks: r() < 0.5,
    maxOutOfOrder: 1 + Math.floor(r() * 8),
    bothDurable: r() < 0.5,
  };
}

/**
 * Runs one seeded schedule: each side's application sends `payloads` payloads while frames are
 * lost, duplicated and reordered and the durable side(s) crash; then the path heals and the run
 * quiesces. Throws (with the seed) if a side ever acknowledges beyond its committed record, or if
 * a handshake after a restart is refused.
 */
function runRestartSchedule(seed: number, payloads: number): RestartRun {
  const r = createRng(seed).next;
  const cfg = draw(r);
  const bags: [Frame[], Frame[]] = [[], []]; // bags[d]: frames on their way to side d
  const fail = (what: string): never => {
    throw new Error(`seed ${seed}: ${what}`);
  };
  const committedAck = (s: Side): number => s.storedNext - 1;
  const commit = (s: Side, record: string) => {
    s.store = record;
    s.storedNext = (JSON.parse(record) as { link: { nextExpected: number } }).link.nextExpected;
  };
  const onTransmit = (s: Side, f: Frame) => {
    if (s.durable && f.ack !== undefined && f.ack > committedAck(s)) {
      fail(`side ${s.index} acknowledged ${f.ack} beyond its committed ${committedAck(s)}`);
    }
    // An ack frame never covers more than is committed (checked above): it may leave at once.
    if (s.durable && f.t === 'data') s.pending.push(f);
    else bags[1 - s.index]!.push(f);
  };
  const mkLink = (s: Side, state?: unknown) =>
    new ReliableLink<number>({
      transmit: (f) => onTransmit(s, f),
      deliver: (p) => s.app.got.push(p),
      ackOnCommit: s.durable,
      autoAck: cfg.autoAck,
      piggybackAcks: cfg.piggybackAcks,
      maxOutOfOrder: cfg.maxOutOfOrder,
      ...(state === undefined ? { session: `S${s.index}` } : { state: state as never }),
    });
  const mkSide = (index: 0 | 1, durable: boolean): Side => {
    const s = {
      index,
      durable,
      app: { sent: [], got: [], incarnation: 0 },
      pending: [],
      staging: [],
      store: '',
      storedNext: 1,
    };
    const side = s as unknown as Side;
    side.link = mkLink(side);
    commit(side, JSON.stringify({ link: side.link.durableState(), app: side.app }));
    return side;
  };
  const sides = [mkSide(0, true), mkSide(1, cfg.bothDurable)] as const;
  const run: RestartRun = { sides, crashes: 0, uncommittedDeliveries: 0, committedUnreleased: 0, steps: 0 };

  const stage = (s: Side) => {
    const point = s.link.commitPoint();
    const record = JSON.stringify({ link: s.link.durableState(), app: s.app });
    s.staging.push({ point, record, outbox: s.pending.splice(0) });
  };
  const resolve = (s: Side, crashBeforeRelease: boolean) => {
    const c = s.staging.shift();
    if (c === undefined) return;
    commit(s, c.record);
    if (crashBeforeRelease) {
      run.committedUnreleased += c.outbox.length;
      crash(s);
      return;
    }
    bags[1 - s.index]!.push(...c.outbox);
    s.link.acknowledgeCommitted(c.point);
  };
  const handshake = () => {
    const [h0, h1] = [sides[0].link.hello(), sides[1].link.hello()];
    for (const s of sides) {
      const h = s.index === 0 ? h0 : h1;
      if (s.durable && h.next - 1 > committedAck(s))
        fail(`side ${s.index}'s hello acknowledges beyond its commit`);
    }
    const res = [sides[0].link.handshake(h1), sides[1].link.handshake(h0)];
    for (const x of res) if (!x.ok) fail(`handshake refused: ${x.kind}: ${x.reason}`);
  };
  const crash = (s: Side) => {
    run.crashes++;
    const rec = JSON.parse(s.store) as { link: unknown; app: App };
    run.uncommittedDeliveries += s.app.got.length - rec.app.got.length;
    s.app = { ...rec.app, incarnation: rec.app.incarnation + run.crashes };
    s.pending = [];
    s.staging = [];
    s.link = mkLink(s, rec.link);
    // The connection drops with the process; frames already on the path may still arrive.
    if (r() < 0.5) for (const b of bags) b.length = 0;
    handshake();
  };

  handshake();
  for (const s of sides) {
    if (!s.durable) continue;
    stage(s);
    resolve(s, false);
  }
  const receiveOne = (s: Side) => {
    const bag = bags[s.index]!;
    if (bag.length === 0) return;
    const i = Math.floor(r() * bag.length);
    const y = r();
    if (y < cfg.pDrop) bag.splice(i, 1);
    else if (y < cfg.pDrop + cfg.pDup) s.link.receive(structuredClone(bag[i]));
    else s.link.receive(bag.splice(i, 1)[0]);
  };
  const send = (s: Side) => {
    if (s.app.sent.length >= payloads) return;
    const v = s.index * 1e9 + s.app.incarnation * 1e4 + s.app.sent.length;
    s.app.sent.push(v);
    s.link.send(v);
  };
  const done = () => sides.every((s) => s.app.sent.length >= payloads);
  while (!done()) {
    run.steps++;
    const s = sides[r() < 0.5 ? 0 : 1];
    const x = r();
    if (x < 0.2) send(s);
    else if (x < 0.6) receiveOne(s);
    else if (x < 0.65) s.link.retransmit();
    else if (x < 0.7) s.link.flushAck();
    else if (x < 0.85 && s.durable) stage(s);
    else if (x < 0.95 && s.durable) resolve(s, r() < 0.1);
    else if (x < 0.95 + cfg.pCrash && s.durable) crash(s);
    else if (x > 0.99) {
      for (const b of bags) b.length = 0; // a connection cut
      handshake();
    }
  }
  quiesce(sides, bags, stage, resolve, fail);
  return run;
}

/** The path heals and nobody crashes any more: commit, release, resend and deliver until settled. */
function quiesce(
  sides: readonly Side[],
  bags: [Frame[], Frame[]],
  stage: (s: Side) => void,
  resolve: (s: Side, crash: boolean) => void,
  fail: (what: string) => never,
): void {
  const settled = () =>
    sides.every((s) => s.link.unacked === 0 && s.pending.length === 0 && s.staging.length === 0) &&
    bags[0].length + bags[1].length === 0;
  for (let round = 0; !settled(); round++) {
    if (round > 1000) {
      const got = sides.map(
        (s) => `side ${s.index} got ${s.app.got.length} of ${sides[1 - s.index]!.app.sent.length}`,
      );
      fail(
        `did not quiesce (a payload acknowledged but never committed is lost for good): ${got.join(', ')}`,
      );
    }
    for (const s of sides) {
      s.link.retransmit();
      s.link.flushAck();
      if (!s.durable) continue;
      stage(s);
      while (s.staging.length > 0) resolve(s, false);
    }
    for (const s of sides) for (const f of bags[s.index]!.splice(0)) s.link.receive(f);
  }
}

/** Checks one schedule: exactly once, in order, both ways; nothing left unacknowledged. */
export function expectExactlyOnce(seed: number, payloads: number) {
  const run = runRestartSchedule(seed, payloads);
  const [a, b] = run.sides;
  expect(b!.app.got, `seed ${seed}`).toEqual(a!.app.sent);
  expect(a!.app.got, `seed ${seed}`).toEqual(b!.app.sent);
  expect(a!.app.sent).toHaveLength(payloads);
  expect(a!.link.unacked + b!.link.unacked, `seed ${seed}`).toBe(0);
  return run;
}
