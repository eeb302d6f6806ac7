/**
 * The quorum the requester's current attempt asks (R1, R5, R6 of `maekawa-process.ts`): `Q_i`,
 * or under quorum reselection (issue 28 §4) the quorum S1 chose or S2 moved to
 * (`maekawa-reselect.ts`). Its members are sent REQUEST and RELEASE; with fencing they are the
 * quorum the token is confirmed with and the renewals go to (F5 of `maekawa-fence.ts`).
 */
import type { Endpoint, ProcessId } from '@critsec/core';
import type { IdIndex } from './id-index.js';
import type { MaekawaMessage } from './maekawa-protocol.js';

/** The quorum asked, by id and by index in the requester's marks (see the module comment). */
export class AskedQuorum {
  readonly #endpoint: Endpoint;
  readonly #index: IdIndex;
  #members: readonly ProcessId[] = [];
  #indices: readonly number[] = [];

  /**
   * @param index the marks' index space (`Q_i`, or every process under reselection).
   * @param members the quorum asked first (`Q_i`).
   */
  constructor(endpoint: Endpoint, index: IdIndex, members: readonly ProcessId[]) {
    this.#endpoint = endpoint;
    this.#index = index;
    this.ask(members);
  }

  /** The members asked. */
  get members(): readonly ProcessId[] {
    return this.#members;
  }

  /** The members' indices in the marks (same order as {@link members}). */
  get indices(): readonly number[] {
    return this.#indices;
  }

  /** The attempt asks `members` from now on (S1, S2). */
  ask(members: readonly ProcessId[]): void {
    this.#members = members;
    this.#indices = Object.freeze(members.map((p) => this.#index.indexOf(p)));
  }

  /** Sends `msg` to every member asked. */
  multicast(msg: MaekawaMessage): void {
    // one message object for the whole quorum, frozen: it can never change after sending, so
    // the receivers' validation may check it once (`defineProtocol`), not once per receiver
    Object.freeze(msg);
    const quorum = this.#members;
    // indexed: the iterator of a for-of allocated a result per member (20 bytes a message)
    for (let x = 0; x < quorum.length; x++) this.#endpoint.send(quorum[x]!, msg);
  }
}
