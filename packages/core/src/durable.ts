/**
 * The crash-recovery contract (issue 27: durable protocol state, restart and rejoin).
 *
 * The papers assume processes never crash. A deployment's processes do; critsec makes a crash
 * look, to everyone else, like a long pause, so the papers' proofs carry over:
 *
 * 1. After every step of a process (a message handled, a call begun or withdrawn — in practice:
 *    once per event-loop turn), the durable layer takes {@link DurableCSObject.durableState}
 *    — every protocol variable the others rely on: grants given and their holders, queues,
 *    clocks, counters, request tags, this process's own CS state — stages it in the member's
 *    store together with the session layer's state, and commits it (one synced write per turn).
 * 2. Only then do the messages of that step leave the process, and only then are the messages
 *    it handled acknowledged (a transactional outbox): a crash before the commit loses the step
 *    *and* everything it caused, and the senders retransmit what it had received.
 * 3. A restarted process builds its CS object with the factory, given the committed state in
 *    {@link ProcessContext.recovered}; the object resumes exactly there. The layer then calls
 *    {@link DurableCSObject.recover}: the application that called `entry()` is gone, so a
 *    request still waiting is withdrawn and a CS still held is left by the exit protocol.
 *
 * Safety therefore holds across any number of crashes and restarts; progress resumes once the
 * process is back. A process whose state is lost (a lost disk) must not rejoin as if new: it
 * would forget the grants it gave.
 */
import type { CSObject } from './cs-object.js';
import type { JsonValue } from './json.js';

/**
 * A CS object whose protocol state survives a crash of its process (see the module comment for
 * the model). An algorithm supports crash recovery when its objects implement this and its
 * factory builds an object from {@link ProcessContext.recovered}.
 */
export interface DurableCSObject<Req = void> extends CSObject<Req> {
  /**
   * Every protocol variable the others may rely on, as JSON, as of now (after the current step).
   * Pure: no side effects; cheap enough to call once per event-loop turn (its size is the
   * algorithm's state: O(n) at most for the critsec algorithms).
   */
  durableState(): JsonValue;
  /**
   * Completes the recovery of an object built from a recovered state: withdraws a request that
   * was waiting (its permissions are given back, as on an aborted `entry`) and leaves a CS that
   * was held (the exit protocol runs: the crashed application's CS is over). Resolves once the
   * object is OutCS (or, for an algorithm whose processes may not all be OutCS, in the state the
   * problem allows, documented by the algorithm); a fresh object resolves at once.
   * @throws CSMICError when a call is in flight (call it before handing the object out).
   */
  recover(): Promise<void>;
}

/** True when `cs` implements the crash-recovery contract ({@link DurableCSObject}). */
export function isDurableCSObject<Req>(cs: CSObject<Req>): cs is DurableCSObject<Req> {
  const d = cs as Partial<DurableCSObject<Req>>;
  return typeof d.durableState === 'function' && typeof d.recover === 'function';
}
