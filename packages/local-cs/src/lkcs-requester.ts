/**
 * LKCS's requester P_i (Kamei & Kakugawa 2017, Sec. 5.2): the variables of Algorithm 3 about its
 * own requests — the tag of the current request per algorithm type, NGrants, the triggered flags,
 * the type waited for — and its handlers of Algorithm 5 (Grant, Preempt) and Algorithm 7
 * (Trigger), with the README's tags: Preempt answered only for the request waiting (deviation 1)
 * and never once triggered (deviation 9); a Grant or a Trigger for a request it does not know is
 * given back or refused with a Release naming it (deviation 11). The CS object (`lkcs.ts`) makes
 * the requests and flips the state.
 */
import type { ProcessId } from '@critsec/core';
import type { At } from './lkcs-protocol.js';
import { reach } from './marks.js';

/** What the requester's handlers send, and the completion of the move waited for. */
export interface RequesterSink {
  /** Sends ⟨type, at, tag⟩ to P_j. */
  send(to: ProcessId, type: 'Release' | 'Relinquish', at: At, tag: number): void;
  /** Sends ⟨RequestByTrigger, at, tag⟩ to N_i ∪ {P_i}. */
  multicastByTrigger(at: At, tag: number): void;
  /** Every grant of the type waited for is here (Algorithm 4's `wait until`). */
  complete(): void;
}

/** The requester's variables and rules (Algorithms 3, 5 and 7). */
export class LkcsRequester {
  /** The tag of the current request per type (0: the initial grants). */
  readonly request: Record<At, number> = { MUTIN: 0, MUTEX: 0 };
  /** NGrants per type: the processes whose grant it holds. */
  readonly nGrants: Record<At, Set<ProcessId>> = { MUTIN: new Set(), MUTEX: new Set() };
  /** Whether the current request per type was made again by a Trigger (RequestByTrigger). */
  readonly triggered: Record<At, boolean> = { MUTIN: false, MUTEX: false };
  /** The type whose grants it waits for, or null. */
  waitingAt: At | null = null;

  constructor(
    /** |N_i| + 1: the grants a move needs. */
    private readonly size: number,
    private readonly sink: RequesterSink,
  ) {}

  /**
   * Algorithm 5, Grant. A Grant for a request this process does not know — not its current one of
   * that type (forged in its name, or asked of a process restarted without its state) — is given
   * back with a Release naming it, or the slot would be lost (issue 27 §3, README deviation 11).
   */
  onGrant(j: ProcessId, at: At, tag: number): void {
    if (tag !== this.request[at]) {
      reach('lkcs:grant-returned');
      this.sink.send(j, 'Release', at, tag);
      return;
    }
    if (this.waitingAt !== at) {
      reach('lkcs:stale-grant'); // a grant it holds (asked about again) or its sidetrack grant, late
      return;
    }
    this.nGrants[at].add(j);
    if (this.nGrants[at].size === this.size) this.sink.complete();
  }

  /** Algorithm 5, Preempt: relinquish P_j's grant if this process still waits with it. */
  onPreempt(j: ProcessId, at: At, tag: number): void {
    if (this.waitingAt !== at || tag !== this.request[at] || this.triggered[at] || !this.nGrants[at].has(j)) {
      reach('lkcs:preempt-ignored');
      return;
    }
    reach('lkcs:relinquish');
    this.nGrants[at].delete(j);
    this.sink.send(j, 'Relinquish', at, tag);
  }

  /**
   * Algorithm 7, Trigger from the leader P_LDR: re-request by the sidetrack if still waiting for
   * that request. A Trigger naming a request of that type this process never issued (a tag above
   * its current one) is refused with a Release naming it, which ends the nomination at the leader
   * (deviation 11).
   */
  onTrigger(leader: ProcessId, at: At, tag: number): void {
    if (tag > this.request[at]) {
      reach('lkcs:trigger-refused');
      this.sink.send(leader, 'Release', at, tag);
      return;
    }
    if (
      this.waitingAt !== at ||
      tag !== this.request[at] ||
      this.triggered[at] ||
      this.nGrants[at].size === this.size
    ) {
      reach('lkcs:trigger-ignored');
      return;
    }
    reach('lkcs:trigger');
    this.nGrants[at].clear();
    this.triggered[at] = true;
    this.sink.multicastByTrigger(at, tag);
  }
}
