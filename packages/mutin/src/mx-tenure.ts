/*
 * MUTIN over a time-bounded `mx` (issue 28; not in the paper — a deviation the README lists):
 * when `mx` reclaims a grant its holder stopped renewing (Maekawa's `ttl`), two leavers may hold
 * it in turn while the first still runs its Exit(). MUTIN's counting is sound only for a leaver
 * that held `mx` alone from its Query to its last Ack, so with `mxTenure` set:
 *
 * T1 The Exit() **commits** (the flip to OutCS follows) only if `mx`'s tenure still lies ahead
 *    when the last Ack has arrived: every member of Q_i then handled the Acquire before the
 *    deadline, and no arbiter of `mx` reclaims before it (Maekawa's F3, given the drift margin),
 *    so the next holder of `mx` queries a quorum that already counts this process out.
 * T2 Otherwise — the tenure expired, `mx` gave none, the caller aborted, or a crash cut the wait
 *    for Acks — the Exit() is **undone**: ⟨Release⟩ to Q_i (Entry()'s message: the members count
 *    the process InCS again), `mx` is given back, the state stays InCS. An undo is always safe:
 *    between the Acquire and the Release a member under-counts the process, which only makes
 *    other leavers wait longer; the process never left.
 * T3 The Acks still owed to the undone Acquire (`lateAcks`, durable) are consumed when they come,
 *    so that one of them is never taken for an Ack of a later Acquire (FIFO per member: the old
 *    Ack comes first).
 */
import { type CSObject, hasTenure, type ProcessId, TenureExpiredError } from '@critsec/core';

/**
 * T1: why this Exit() may not commit now — a {@link TenureExpiredError} when `mx` gives no
 * tenure or its `remaining()` is ≤ 0 — or null when it may.
 */
export function mxTenureLapsed(mx: CSObject, id: ProcessId): TenureExpiredError | null {
  const tenure = hasTenure(mx) ? mx.tenure() : undefined;
  if (tenure !== undefined && tenure.remaining() > 0) return null;
  return new TenureExpiredError(
    `MUTIN: P${id}'s grant of mx ${tenure === undefined ? 'is not held with a tenure' : 'expired'} before its last Ack; the Exit() is undone (it stays InCS)`,
    { token: tenure?.token ?? 0, overdue: tenure === undefined ? 0 : Math.max(0, -tenure.remaining()) },
  );
}

/** T3: the members of Q_i whose Ack to an undone Acquire has not come yet. */
export class LateAcks {
  #owed = new Set<ProcessId>();

  /** The Acquire went to `quorum` and `acked` answered: the others' Acks are owed. */
  undo(quorum: readonly ProcessId[], acked: ReadonlySet<ProcessId>): void {
    for (const j of quorum) if (!acked.has(j)) this.#owed.add(j);
  }

  /** An Ack from `from`: true when it answers an undone Acquire (consumed). */
  take(from: ProcessId): boolean {
    return this.#owed.delete(from);
  }

  /** The owed members, ascending (durable state). */
  snapshot(): ProcessId[] {
    return [...this.#owed].sort((a, b) => a - b);
  }

  /** Resumes from a durable state. */
  restore(owed: readonly ProcessId[] | undefined): void {
    this.#owed = new Set(owed ?? []);
  }
}
