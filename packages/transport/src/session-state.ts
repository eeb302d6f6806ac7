/**
 * The crash-recovery part of the session layer (issue 27): what of a {@link ReliableLink} is
 * made durable (`LinkState`), the commit point that gates acknowledgements (`CommitPoint`),
 * and the checks a stored state must pass before a link is rebuilt from it. The link itself (`session.ts`) owns the state; this module only describes and validates it.
 *
 * The rule a durable member follows per event-loop turn (a transactional outbox): take
 * `link.commitPoint()` and `link.durableState()`, stage them with the CS object's state in one
 * record, commit it (one synced write), then release the turn's outgoing frames and call
 * `link.acknowledgeCommitted(point)`. A link built with `ackOnCommit: true` never acknowledges —
 * by ack frame, piggybacked ack or the hello's `next` — a frame delivered after the last point
 * whose commit resolved: a crash before the commit must make the sender resend it.
 */
import { TransportError } from '@critsec/core';
import {
  type CommitPoint,
  isObject,
  isSeq,
  isSessionId,
  LINK_STATE_VERSION,
  type LinkState,
} from './session-frames.js';

const WAY_OUT =
  'restore the member from the record its own store committed (a store that is lost or from another ' +
  'cluster cannot be repaired: the member must rejoin as new, and only after the cluster is restarted)';

function invalid(what: string): never {
  throw new TransportError(`ReliableLink: the restored link state ${what}; ${WAY_OUT}`);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/**
 * Checks a stored link state field by field (it comes from disk: nothing is trusted), and that
 * it belongs to `session` if one is given.
 * @throws TransportError naming the faulty field and the way out.
 */
export function parseLinkState<P>(x: unknown, session?: string): LinkState<P> {
  if (!isObject(x)) invalid('is not an object');
  if (x.v !== LINK_STATE_VERSION)
    invalid(`has version ${JSON.stringify(x.v)}, expected ${LINK_STATE_VERSION}`);
  if (!isSessionId(x.session)) invalid('has no valid session id');
  if (session !== undefined && session !== x.session) {
    invalid(`belongs to session ${x.session}, not ${session} (give no session option with a state)`);
  }
  if (!(x.peer === null || isSessionId(x.peer))) invalid('has a peer session that is neither null nor an id');
  if (!isSeq(x.nextExpected)) invalid('has a nextExpected that is not an integer ≥ 1');
  if (!isSeq(x.nextSeq)) invalid('has a nextSeq that is not an integer ≥ 1');
  if (!isCount(x.ackedUpTo) || x.ackedUpTo >= x.nextSeq) invalid('has an ackedUpTo outside 0 … nextSeq − 1');
  const unacked = x.unacked;
  if (!Array.isArray(unacked) || unacked.length !== x.nextSeq - 1 - x.ackedUpTo) {
    invalid(`does not hold the ${x.nextSeq - 1 - x.ackedUpTo} unacknowledged payloads its numbers imply`);
  }
  unacked.forEach((e: unknown, i) => {
    if (!isObject(e) || e.seq !== (x.ackedUpTo as number) + 1 + i || !('p' in e)) {
      invalid(`has a malformed unacknowledged payload at index ${i} (expected {seq, p} in seq order)`);
    }
  });
  return x as unknown as LinkState<P>;
}

/**
 * Checks a commit point handed back to `acknowledgeCommitted` against the link's state.
 * @throws TransportError for a point this link never produced.
 */
function checkCommitPoint(p: unknown, nextExpected: number, nextSeq: number): CommitPoint {
  if (!isObject(p) || !isSeq(p.nextExpected) || !isSeq(p.nextSeq)) {
    throw new TransportError(
      'ReliableLink: a commit point is {nextExpected, nextSeq}, as commitPoint() returned it',
    );
  }
  if (p.nextExpected > nextExpected || p.nextSeq > nextSeq) {
    throw new TransportError(
      `ReliableLink: the commit point (nextExpected ${p.nextExpected}, nextSeq ${p.nextSeq}) is beyond this ` +
        `link (nextExpected ${nextExpected}, nextSeq ${nextSeq}); pass the point commitPoint() returned`,
    );
  }
  return { nextExpected: p.nextExpected, nextSeq: p.nextSeq };
}

/** A link's state as `durableState` exports it: the window `win` and the points up to `end`. */
export function toLinkState<P>(
  session: string,
  peer: string | undefined,
  end: CommitPoint,
  win: { ackedUpTo: number; unacked: { seq: number; p: P }[] },
): LinkState<P> {
  return { v: LINK_STATE_VERSION, session, peer: peer ?? null, ...end, ...win };
}

/** The reason a `'peer-restarted'` refusal gives: the peer's session changed under this link. */
export function peerRestartedReason(before: string, now: string): string {
  return (
    `the peer restarted (session ${before} is now ${now}) and lost its state; critsec algorithms assume no ` +
    `crashes without their state, so its new session is refused: restore the peer from its member's store ` +
    `(the same session resumes); a lost store means the member rejoins as new only after the whole cluster ` +
    `is restarted (onPeerRestart: 'reset' would deadlock the algorithms)`
  );
}

const ORIGIN: CommitPoint = { nextExpected: 1, nextSeq: 1 };

/**
 * A link's two commit points: the last one staged (`commitPoint`) and the last one whose commit
 * resolved (`acknowledgeCommitted`). With `ackOnCommit` off both are ignored: the link acks
 * what it delivered and resends what it sent. Internal to `@critsec/transport`.
 */
export class CommitPoints {
  staged: CommitPoint = ORIGIN;
  committed: CommitPoint = ORIGIN;

  constructor(readonly ackOnCommit: boolean) {}

  /** The highest `seq` the link may acknowledge, its receiver having delivered `seq < nextExpected`. */
  ackLimit(nextExpected: number): number {
    return (this.ackOnCommit ? this.committed.nextExpected : nextExpected) - 1;
  }

  /** The end (exclusive) of what `retransmit` may resend, the sender being at `nextSeq`. */
  resendEnd(nextSeq: number): number {
    return this.ackOnCommit ? Math.min(this.committed.nextSeq, nextSeq) : nextSeq;
  }

  /** Where `durableState` ends: the staged point with `ackOnCommit`, `now` otherwise. */
  exportEnd(now: CommitPoint): CommitPoint {
    return this.ackOnCommit ? this.staged : now;
  }

  /** Both points at `p` (a restored or reset link: everything it holds is durable). */
  restart(p: CommitPoint = ORIGIN): void {
    this.staged = p;
    this.committed = p;
  }

  /**
   * Raises the committed point to `point` (never lowers it); true when its `nextExpected` moved.
   * @throws TransportError without `ackOnCommit`, or for a point beyond `now`.
   */
  commit(point: unknown, now: CommitPoint): boolean {
    if (!this.ackOnCommit)
      throw new TransportError('ReliableLink: acknowledgeCommitted needs ackOnCommit: true');
    const p = checkCommitPoint(point, now.nextExpected, now.nextSeq);
    const before = this.committed;
    this.committed = {
      nextExpected: Math.max(before.nextExpected, p.nextExpected),
      nextSeq: Math.max(before.nextSeq, p.nextSeq),
    };
    return this.committed.nextExpected !== before.nextExpected;
  }
}
