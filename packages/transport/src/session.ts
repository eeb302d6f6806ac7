/**
 * The reliable-FIFO session layer (DESIGN.md 2, 3.2): turns an unreliable frame path — frames
 * may be lost, duplicated or reordered, e.g. a TCP connection that drops and is re-established
 * — into what every critsec algorithm assumes of a channel: reliable, FIFO, exactly-once.
 *
 * One {@link ReliableLink} per direction pair (one per peer): the sending half numbers payloads
 * (`seq` from 1), buffers them until a cumulative ack covers them and retransmits on demand; the
 * receiving half delivers in `seq` order exactly once, buffers ahead-of-order frames (bounded)
 * and drops duplicates. The layer owns no timers and no sockets: the transport below decides
 * when to {@link ReliableLink.retransmit} (a timer, a reconnect) and when to run the
 * {@link ReliableLink.hello | resume handshake}.
 *
 * Session identity, the resume handshake and a restarted peer: see {@link SessionHello}; crash
 * recovery (`durableState`, the `state` option, `ackOnCommit`): see `session-state.ts`.
 */
import { ProtocolError } from '@critsec/core';
import {
  type CommitPoint,
  checkOnPeerRestart,
  checkSession,
  DEFAULT_MAX_OUT_OF_ORDER,
  DEFAULT_MAX_UNACKED,
  emptyStats,
  type HandshakeResult,
  isHello,
  isObject,
  isSeq,
  MALFORMED_HELLO,
  type LinkState,
  positiveInt,
  randomSessionId,
  type ReliableLinkOptions,
  type SessionFrame,
  type SessionHello,
  type SessionStats,
  unackedBoundError,
} from './session-frames.js';
import { SendWindow } from './send-window.js';
import { CommitPoints, parseLinkState, peerRestartedReason, toLinkState } from './session-state.js';

/**
 * Reliable, FIFO, exactly-once delivery of payloads `P` over an unreliable frame path, with
 * cumulative acks, bounded buffers, resend on demand and a resume handshake that survives
 * reconnections and detects a restarted peer (see {@link SessionHello} for the behaviour).
 *
 * The layer's own guarantee, under any loss/duplication/reordering of frames below: every
 * payload passed to `deliver` was sent, in `send` order, at most once; and every payload sent
 * is eventually delivered provided the owner keeps calling `retransmit` (or resumes after a
 * reconnect) while frames keep getting through.
 */
export class ReliableLink<P> {
  readonly #transmit: (frame: SessionFrame<P>) => void;
  readonly #deliver: (payload: P) => void;
  readonly #maxUnacked: number;
  readonly #maxOutOfOrder: number;
  readonly #onPeerRestart: 'refuse' | 'reset';
  readonly #autoAck: boolean;
  readonly #piggyback: boolean;
  readonly #session: string;
  #peerSession: string | undefined;

  // Sending half: the payloads not yet acknowledged, for resending.
  readonly #out = new SendWindow<P>();

  // Receiving half.
  #nextExpected = 1;
  readonly #ahead = new Map<number, P>();
  #ackPending = false;

  readonly #stats: SessionStats = emptyStats();

  // Crash recovery (`session-state.ts`): the last commit point staged, and the last committed.
  readonly #points: CommitPoints;

  /**
   * A fresh link, or with `opts.state` the one a crashed link had committed.
   * @throws TransportError for a non-positive bound, a bad session id or a malformed `state`.
   */
  constructor(opts: ReliableLinkOptions<P>) {
    this.#transmit = opts.transmit;
    this.#deliver = opts.deliver;
    this.#maxUnacked = positiveInt('maxUnacked', opts.maxUnacked, DEFAULT_MAX_UNACKED);
    this.#maxOutOfOrder = positiveInt('maxOutOfOrder', opts.maxOutOfOrder, DEFAULT_MAX_OUT_OF_ORDER);
    this.#onPeerRestart = checkOnPeerRestart(opts.onPeerRestart);
    this.#autoAck = opts.autoAck ?? true;
    this.#piggyback = opts.piggybackAcks ?? false;
    const state = opts.state === undefined ? undefined : parseLinkState<P>(opts.state, opts.session);
    this.#session = checkSession(opts.session ?? state?.session ?? randomSessionId());
    this.#points = new CommitPoints(opts.ackOnCommit ?? false);
    if (state !== undefined) this.#restore(state);
  }

  #restore(st: LinkState<P>): void {
    this.#peerSession = st.peer ?? undefined;
    this.#nextExpected = st.nextExpected;
    this.#out.restore(st.ackedUpTo, st.unacked);
    this.#points.restart({ nextExpected: st.nextExpected, nextSeq: st.nextSeq });
  }

  /** This side's session (incarnation) id. */
  get session(): string {
    return this.#session;
  }

  /** The peer session this link holds state for (`undefined` before the first handshake). */
  get peerSession(): string | undefined {
    return this.#peerSession;
  }

  /** Payloads sent but not yet acknowledged (buffered for resending). */
  get unacked(): number {
    return this.#out.unacked;
  }

  /** Receiver side: the next `seq` it will deliver. */
  get nextExpected(): number {
    return this.#nextExpected;
  }

  /** Sender side: the `seq` the next `send` will get. */
  get nextSeq(): number {
    return this.#out.nextSeq;
  }

  /** Receiver side: ahead-of-order frames currently buffered. */
  get bufferedOutOfOrder(): number {
    return this.#ahead.size;
  }

  /** Counters (live, read-only view). */
  get stats(): Readonly<SessionStats> {
    return this.#stats;
  }

  /**
   * Assigns the next `seq` to `payload`, buffers it until acknowledged, and transmits it.
   * @throws TransportError when `maxUnacked` payloads are already unacknowledged.
   */
  send(payload: P): void {
    if (this.unacked >= this.#maxUnacked) throw unackedBoundError(this.unacked, this.#maxUnacked);
    const seq = this.#out.push(payload);
    this.#stats.sent++;
    this.#transmit(this.#dataFrame(seq, payload));
  }

  /** True while a data frame arrived that no ack (standalone or piggybacked) has covered yet. */
  get ackPending(): boolean {
    return this.#ackPending;
  }

  #dataFrame(seq: number, p: P): SessionFrame<P> {
    if (!this.#piggyback) return { t: 'data', seq, p };
    this.#ackPending = false;
    return { t: 'data', seq, p, ack: this.#points.ackLimit(this.#nextExpected) };
  }

  #now(): CommitPoint {
    return { nextExpected: this.#nextExpected, nextSeq: this.#out.nextSeq };
  }

  /**
   * The state to stage for crash recovery (issue 27; restore it with the `state` option). It is
   * JSON only if the payloads `P` are JSON values (they are not copied: never mutate a payload
   * after `send`). With `ackOnCommit`, as of the last {@link ReliableLink.commitPoint} (call that
   * first); else as of now. Ahead-of-order frames are not included (the sender resends them).
   */
  durableState(): LinkState<P> {
    const end = this.#points.exportEnd(this.#now());
    return toLinkState(this.#session, this.#peerSession, end, this.#out.snapshot(end.nextSeq));
  }

  /**
   * Captures what was delivered and sent so far, when the durable layer stages the turn's record
   * (then take {@link ReliableLink.durableState}); hand the point back to
   * {@link ReliableLink.acknowledgeCommitted} once the record is committed.
   */
  commitPoint(): CommitPoint {
    this.#points.staged = this.#now();
    return this.#points.staged;
  }

  /**
   * Reports that the record staged at `point` is durable (with `ackOnCommit`): from now on the
   * link acknowledges up to it, and sends one ack frame at once if that covers more than before.
   * Points may be reported late or out of order (an older one changes nothing).
   * @throws TransportError without `ackOnCommit`, or for a point this link never reached.
   */
  acknowledgeCommitted(point: CommitPoint): void {
    if (!this.#points.commit(point, this.#now())) return;
    if (this.#points.committed.nextExpected === this.#nextExpected) this.#ackPending = false;
    this.#stats.acksSent++;
    this.#transmit({ t: 'ack', ack: this.#points.ackLimit(this.#nextExpected) });
  }

  /**
   * Takes a frame from the layer below. A frame of the wrong shape, or with impossible numbers
   * (an ack of a `seq` never sent), is dropped and counted in `stats.malformed` — never thrown.
   * Data frames are delivered in order (ahead-of-order ones buffered, duplicates dropped) and
   * answered with a cumulative ack; acks free acknowledged payloads. A data frame may carry a
   * piggybacked `ack` (see `piggybackAcks`): it is checked like an ack frame's (a bad one drops
   * the whole frame as malformed) and applied before the payload.
   *
   * @throws whatever `deliver` throws (after the frame's own bookkeeping is complete; the
   * remaining in-order buffered frames are delivered first).
   */
  receive(frame: unknown): void {
    if (!isObject(frame)) {
      this.#stats.malformed++;
      return;
    }
    if (frame.t === 'data') {
      if (!isSeq(frame.seq) || !('p' in frame)) {
        this.#stats.malformed++;
        return;
      }
      if (frame.ack !== undefined) {
        if (!this.#validAck(frame.ack)) {
          this.#stats.malformed++;
          return;
        }
        this.#out.acknowledge(frame.ack);
      }
      this.#receiveData(frame.seq, frame.p as P);
      return;
    }
    if (frame.t === 'ack') {
      const ack = frame.ack;
      if (!this.#validAck(ack)) {
        this.#stats.malformed++;
        return;
      }
      this.#out.acknowledge(ack);
      return;
    }
    this.#stats.malformed++;
  }

  /** An ack this side can have earned: an integer in 0 … `nextSeq − 1`. */
  #validAck(ack: unknown): ack is number {
    return typeof ack === 'number' && Number.isSafeInteger(ack) && ack >= 0 && ack < this.#out.nextSeq;
  }

  /**
   * Resends every unacknowledged frame (from `fromSeq` on, if given), in order. Call it on a
   * retransmission timer, after a reconnect, or when a blocked writer drains. With `release`
   * (an `ackOnCommit` owner whose outbox below the link withheld the frames sent since its last
   * commit): they are first transmissions, not counted in `stats.retransmitted`.
   */
  retransmit(fromSeq = 1, { release = false }: { release?: boolean } = {}): void {
    const first = Math.max(fromSeq, this.#out.ackedUpTo + 1);
    for (let seq = first; seq < this.#points.resendEnd(this.#out.nextSeq); seq++) {
      // Re-read: a synchronous ack during transmit may have freed the head of the buffer.
      if (seq <= this.#out.ackedUpTo) continue;
      const p = this.#out.at(seq);
      if (!release) this.#stats.retransmitted++;
      this.#transmit(this.#dataFrame(seq, p));
    }
  }

  /**
   * The resume step after a reconnection with the *same* peer session: the peer reports its
   * `nextExpected`; every payload below it is freed (as by an ack of `peerNextExpected - 1`)
   * and every payload from it on is resent. Returns the number resent.
   *
   * @throws ProtocolError when `peerNextExpected` is not an integer in `1 … nextSeq` (the peer
   * claims frames that were never sent: its state belongs to another session).
   */
  resume(peerNextExpected: number): number {
    if (!isSeq(peerNextExpected) || peerNextExpected > this.#out.nextSeq) {
      throw new ProtocolError(
        `ReliableLink: the peer expects seq ${String(peerNextExpected)}, but only seq 1 … ${this.#out.nextSeq - 1} ` +
          `were sent in this session; a valid resume point is an integer in 1 … ${this.#out.nextSeq}`,
      );
    }
    if (peerNextExpected - 1 > this.#out.ackedUpTo) this.#out.acknowledge(peerNextExpected - 1);
    const before = this.#stats.retransmitted;
    this.retransmit();
    return this.#stats.retransmitted - before;
  }

  /** The {@link SessionHello} to send when a connection (re)opens, before any frame. */
  hello(): SessionHello {
    const next = this.#points.ackLimit(this.#nextExpected) + 1;
    return { t: 'hello', session: this.#session, next, peer: this.#peerSession ?? null };
  }

  /**
   * Runs the resume handshake with the peer's {@link SessionHello} (see its rules there):
   * on first contact adopts the peer's session; with the same session resumes; with a new one
   * (the peer restarted) refuses or resets according to `onPeerRestart`. On success every
   * payload the peer has not delivered is resent (returned as `resent`). Never throws:
   * a malformed or inconsistent hello is refused (and counted in `stats.malformed`).
   *
   * A `peer` field naming another session than ours means the peer holds state of an earlier
   * incarnation of *this* side; its `next` then refers to that incarnation and is ignored
   * (treated as 1): the peer will itself refuse or reset.
   *
   * With `{ resend: false }` acknowledged payloads are freed but nothing is resent yet: the
   * owner first sends its own hello, then calls {@link ReliableLink.retransmit} (so its hello
   * precedes the resent frames on the new connection).
   */
  handshake(hello: unknown, options: { resend?: boolean } = {}): HandshakeResult {
    if (!isHello(hello)) {
      this.#stats.malformed++;
      return { ok: false, kind: 'malformed', reason: MALFORMED_HELLO };
    }
    const peerKnowsUs = hello.peer === this.#session;
    const next = peerKnowsUs ? hello.next : 1;
    let kind: 'new' | 'resumed' | 'reset';
    if (this.#peerSession === undefined) {
      kind = 'new';
    } else if (this.#peerSession === hello.session) {
      kind = 'resumed';
    } else if (this.#onPeerRestart === 'refuse') {
      const reason = peerRestartedReason(this.#peerSession, hello.session);
      return { ok: false, kind: 'peer-restarted', reason };
    } else {
      this.#reset();
      kind = 'reset';
    }
    if (next > this.#out.nextSeq) {
      this.#stats.malformed++;
      return {
        ok: false,
        kind: 'inconsistent',
        reason: `the peer expects seq ${next}, but only seq 1 … ${this.#out.nextSeq - 1} were sent in session ${this.#session}`,
      };
    }
    this.#peerSession = hello.session;
    if (options.resend === false) {
      if (next - 1 > this.#out.ackedUpTo) this.#out.acknowledge(next - 1);
      return { ok: true, kind, resent: 0 };
    }
    return { ok: true, kind, resent: this.resume(next) };
  }

  /** Sends one cumulative ack if any data frame arrived since the last ack (for `autoAck: false`). */
  flushAck(): void {
    if (!this.#ackPending) return;
    this.#ackPending = false;
    this.#stats.acksSent++;
    this.#transmit({ t: 'ack', ack: this.#points.ackLimit(this.#nextExpected) });
  }

  #receiveData(seq: number, p: P): void {
    if (seq < this.#nextExpected) {
      this.#stats.duplicates++;
      this.#ackAfterData();
      return;
    }
    if (seq > this.#nextExpected) {
      if (this.#ahead.has(seq)) this.#stats.duplicates++;
      else if (this.#ahead.size >= this.#maxOutOfOrder) this.#stats.overflow++;
      else {
        this.#ahead.set(seq, p);
        this.#stats.outOfOrder++;
      }
      this.#ackAfterData();
      return;
    }
    let failure: { err: unknown } | undefined;
    let first = true;
    while (first || this.#ahead.has(this.#nextExpected)) {
      let payload = p;
      if (!first) {
        payload = this.#ahead.get(this.#nextExpected) as P;
        this.#ahead.delete(this.#nextExpected);
      }
      first = false;
      this.#nextExpected++;
      // Owed from the moment `nextExpected` moves, before `deliver`: a data frame it sends back
      // (a reply) carries the ack under `piggybackAcks` and settles it — up to this payload only.
      this.#ackPending = true;
      this.#stats.delivered++;
      try {
        this.#deliver(payload);
      } catch (err) {
        failure ??= { err };
      }
    }
    if (this.#autoAck) this.flushAck();
    if (failure !== undefined) throw failure.err;
  }

  #ackAfterData(): void {
    this.#ackPending = true;
    if (this.#autoAck) this.flushAck();
  }

  #reset(): void {
    this.#stats.discarded += this.unacked;
    this.#stats.resets++;
    this.#out.reset();
    this.#nextExpected = 1;
    this.#ahead.clear();
    this.#ackPending = false;
    this.#points.restart();
  }
}
