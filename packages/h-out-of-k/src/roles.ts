/**
 * Who may send what to one process of the h-out-of-k algorithm — h-out-of-k paper (Manabe &
 * Tajima), Sec. 3.1 and Fig. 1: `P_i` requesting h units asks the arbiters of `q_{h,k}(i)`, so an
 * arbiter hears `request(h)` only from the processes whose quorum for h contains it, and a
 * requester hears `OK`/`cancel` only from its quorum. The dispatch of `h-out-of-k.ts` checks the
 * sender here before anything else (the clock included); a recovered state is checked against the
 * same roles (`durable.ts`). Internal to `@critsec/h-out-of-k`.
 *
 * **Validation, before the clock** (a precision beyond Fig. 1). An arbiter accepts `request` only from a process whose quorum
 *   for `h'` contains it, and `release`/`cancelled` (and `confirm`) only from a process one of whose quorums
 *   contains it; a requester accepts `OK`/`cancel`/`probe` (and, with fencing, `confirmed`/`expired`) of its current request only from its
 *   quorum `Q`, and of any other request only from a process in one of its quorums. (A second
 *   request while the first is in `Que` comes from a legitimate sender: `arbiter.ts` sets it aside
 *   and probes — issue 27 §3.) Anything else is a `ProtocolError`,
 *   dropped before it touches anything — the clock included (an honest process never sends one, so
 *   a forged `c`/`ts` cannot move `c`). A stale message from a legitimate sender still counts for
 *   the clock (Sec. 4.1), then is ignored. Under quorum reselection (S4 of `reselect.ts`) "a
 *   process whose quorum" reads "any process, when some quorum of `Q_{h,k}` holds this arbiter",
 *   and "its quorums" every quorum of every `Q_{h,k}`.
 */
import type { ProcessId } from '@critsec/core';
import type { HKArbiter } from '@critsec/coteries';
import type { HOutOfKMessage } from './messages.js';

/** Every process id `0..n−1`. */
function everyone(n: number): ProcessId[] {
  return Array.from({ length: n }, (_, p) => p);
}

/** The requester's current request, as the check of an answer needs it. */
export interface CurrentRequest {
  /** `seq` of the current request (−1: none). */
  readonly request: number;
  /** `inQ[r] = 1`: r ∈ Q. */
  readonly inQ: Uint8Array;
  /** `Q`, for the error message. */
  readonly Q: readonly ProcessId[];
}

/** The senders one process accepts, per message type (built once from the (h,k)-arbiter). */
export class SenderRoles {
  /** Number of processes. */
  readonly n: number;
  readonly #id: ProcessId;
  readonly #k: number;
  /** `reporter[h−1][p'] = 1`: p' asks this arbiter when it requests h units. */
  readonly #reporter: Uint8Array[] = [];
  /** `asker[p'] = 1`: p' asks this arbiter for some h (may send `release`, `cancelled`). */
  readonly #asker: Uint8Array;
  /** `answerer[r] = 1`: r is in this process's quorum for some h (may send `OK`, `cancel`). */
  readonly #answerer: Uint8Array;

  /**
   * @param reselect quorum reselection (S4 of `reselect.ts`): `p` may ask this arbiter for h
   *   whenever some quorum of `Q_{h,k}` holds it, and any member of any quorum may answer.
   */
  constructor(id: ProcessId, n: number, k: number, arbiter: HKArbiter, reselect = false) {
    this.n = n;
    this.#id = id;
    this.#k = k;
    this.#asker = new Uint8Array(n);
    this.#answerer = new Uint8Array(n);
    for (let h = 1; h <= k; h++) {
      const r = new Uint8Array(n);
      const quorums = reselect ? arbiter.quorumSet(h).quorums : [];
      const askers = quorums.some((q) => q.includes(id)) ? everyone(n) : arbiter.reportersOf(id, h);
      for (const p of askers) r[p] = this.#asker[p] = 1;
      this.#reporter.push(r);
      for (const q of reselect ? quorums.flat() : arbiter.quorumOf(id, h)) this.#answerer[q] = 1;
    }
  }

  /** True when `p` asks this arbiter for `h` units (`h` in 1..k). */
  asks(p: ProcessId, h: number): boolean {
    return this.#reporter[h - 1]?.[p] === 1;
  }

  /** True when `p` asks this arbiter for some h. */
  asksSome(p: ProcessId): boolean {
    return this.#asker[p] === 1;
  }

  /**
   * Why `msg` from `from` is refused (the end of the `ProtocolError`'s message), or `undefined`: a
   * message that no honest process sends this one, from outside its role. Staleness, and a second
   * request while the first is in `Que`, are the handlers' business.
   */
  refusal(from: ProcessId, msg: HOutOfKMessage, cur: CurrentRequest): string | undefined {
    const me = `P${this.#id}`;
    switch (msg.type) {
      case 'request':
        if (this.asks(from, msg.h)) return undefined;
        return `request(h = ${msg.h}) from P${from}, whose quorum for ${msg.h} units does not contain ${me}`;
      case 'release':
      case 'cancelled':
      case 'confirm':
        if (this.#asker[from] === 1) return undefined;
        return `${msg.type} from P${from}, none of whose quorums (h = 1..${this.#k}) contains ${me}`;
      case 'OK':
      case 'cancel':
      case 'probe':
      case 'confirmed':
      case 'expired':
        // an answer to the current request comes from Q; one to another request (stale) from
        // a quorum of this process for some h
        if (msg.seq === cur.request) {
          if (cur.inQ[from] === 1) return undefined;
          return `${msg.type} from P${from}, which is not in its quorum Q = {${cur.Q.join(', ')}}`;
        }
        if (this.#answerer[from] === 1) return undefined;
        return `${msg.type} from P${from}, which is in none of its quorums (h = 1..${this.#k})`;
    }
  }
}
