/*
 * The quorum member's memory of the leavers it owes a Response2 (Algorithm 2's responseAgainTo_i
 * and respAgainReqCnt_i), kept one entry per process instead of one in all (issue 27 §3).
 *
 * DEVIATION (no message a validator accepts may wedge its receiver): the paper keeps a single
 * responseAgainTo_i, which every Query overwrites and every Acquire clears. A Query in the name of
 * a process of R_i that it is not waiting on (a reqCnt it never issued, or an old one — what a
 * process restarted without its state sends) then takes the place of the leaver that holds `mx`,
 * whose Response2 from this member is lost for good; an Acquire from a process that never asked
 * (a process InCS that is not leaving) clears it likewise. Here a Query sets the entry of its
 * sender only, a Release answers every entry, an Acquire is taken only from a process with an
 * entry and ends that entry only, and a Withdraw — the requester's answer to a response for a
 * Query it never made or has aborted — ends the entry it names. In a run without forged messages
 * and without aborted exits there is never more than one entry, and the messages are the paper's.
 */
import type { ProcessId } from '@critsec/core';

/** One leaver this member owes a Response2: the reqCnt of its latest Query here. */
export interface ResponseAgainEntry {
  /** The reqCnt of the process's latest Query received here. */
  readonly reqCnt: number;
  /** The paper's `'once'` rule: its one Response2 has been sent (the entry stays for its Acquire). */
  spent: boolean;
}

/** A leaver owed a Response2 and the reqCnt that Response2 carries. */
export interface ResponseAgainTarget {
  /** The leaver. */
  readonly to: ProcessId;
  /** The reqCnt of its latest Query here. */
  readonly reqCnt: number;
}

/** The per-process responseAgainTo_i of one MUTIN quorum member (see the file header). */
export class ResponseAgain {
  /** Leaver → its entry, in the order their latest Query arrived (oldest first). */
  readonly #entries = new Map<ProcessId, ResponseAgainEntry>();

  /** ⟨Query, reqCnt⟩ from `from`: its entry now names this Query (the newest). */
  query(from: ProcessId, reqCnt: number): void {
    this.#entries.delete(from);
    this.#entries.set(from, { reqCnt, spent: false });
  }

  /** Whether `from` has an entry, i.e. a Query received here that no Acquire or Withdraw ended. */
  has(from: ProcessId): boolean {
    return this.#entries.has(from);
  }

  /**
   * The leavers to answer with a Response2 at a Release, oldest first: each unspent entry. With
   * `once`, each is spent by this answer (the paper's rule).
   */
  answer(once: boolean): ResponseAgainTarget[] {
    const out: ResponseAgainTarget[] = [];
    for (const [to, e] of this.#entries) {
      if (e.spent) continue;
      out.push({ to, reqCnt: e.reqCnt });
      if (once) e.spent = true;
    }
    return out;
  }

  /** ⟨Acquire⟩ from `from`, which has an entry: ends it. */
  acquire(from: ProcessId): void {
    this.#entries.delete(from);
  }

  /** ⟨Withdraw, reqCnt⟩ from `from`: ends its entry if it names that Query; whether it did. */
  withdraw(from: ProcessId, reqCnt: number): boolean {
    if (this.#entries.get(from)?.reqCnt !== reqCnt) return false;
    this.#entries.delete(from);
    return true;
  }

  /** The newest unspent entry — the paper's single responseAgainTo_i / respAgainReqCnt_i — or null. */
  newest(): ResponseAgainTarget | null {
    let last: ResponseAgainTarget | null = null;
    for (const [to, e] of this.#entries) if (!e.spent) last = { to, reqCnt: e.reqCnt };
    return last;
  }

  /** Replaces every entry by those of a {@link snapshot} (a recovered state, issue 27). */
  restore(entries: readonly (readonly [ProcessId, number, boolean])[]): void {
    this.#entries.clear();
    for (const [p, reqCnt, spent] of entries) this.#entries.set(p, { reqCnt, spent });
  }

  /** Every entry, oldest first, for `inspect()`: `[process, reqCnt, spent]`. */
  snapshot(): [ProcessId, number, boolean][] {
    return [...this.#entries].map(([p, e]) => [p, e.reqCnt, e.spent]);
  }
}
