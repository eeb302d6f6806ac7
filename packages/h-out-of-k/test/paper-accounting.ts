/**
 * Sec. 4.3's accounting of messages per request, read from the simulator's trace (send and
 * deliver lines, in order). Every message is charged to one request `(p, seq)`:
 *
 * - `request`, `release` and the first `OK` an arbiter sends for a request: to that request;
 * - a `cancel`: to the request whose arrival made the arbiter send it (the cancel loop runs only
 *   in the handler of a `request`: the delivery just before it on that arbiter);
 * - the `cancelled` that answers it, and every later `OK` of the same arbiter for the cancelled
 *   request (it is a wait entry again only after a `cancelled`): to the request the cancel is
 *   charged to ("messages for this procedure are counted in the procedure for r", Sec. 4.3).
 *
 * The causal attribution charges the OKs that `NewChance` sends to whoever's message ran it; this
 * accounting charges them as the paper does. It is the one the restated bound
 * (`hOutOfKBounds(...).messagesContended`, per request) is about.
 */
import type { ProcessId } from '@critsec/core';
import type { HKArbiter } from '@critsec/coteries';
import { hOutOfKBounds } from '../src/index.js';
import { contendedRun, pairs } from './helpers.js';

/** One request and the messages the paper's accounting charges to it. */
export interface RequestCharge {
  readonly process: ProcessId;
  readonly seq: number;
  /** Units asked. */
  h: number;
  /** Size of the quorum it asked (its `request` messages). */
  quorum: number;
  /** Messages charged, by the rules above. */
  messages: number;
}

interface TraceLine {
  readonly e: string;
  readonly from: ProcessId;
  readonly to: ProcessId;
  readonly ch: string;
  readonly m?: { readonly type: string; readonly seq: number; readonly h?: number };
}

/**
 * A trace sink (`createCluster({ trace: accounting.sink })`) that charges every message sent on
 * the root channel; `charges` lists the requests, `total` counts the messages seen.
 */
export class PaperAccounting {
  readonly #requests = new Map<string, RequestCharge>();
  /** Sent and not yet delivered, per link (FIFO), to tell what a delivery was. */
  readonly #inFlight = new Map<string, NonNullable<TraceLine['m']>[]>();
  /** The message each process is handling now (its last delivery). */
  readonly #handling = new Map<ProcessId, { from: ProcessId; m: NonNullable<TraceLine['m']> }>();
  /** Arbiter u, requester p, seq → the request a cancel of u for (p, seq) is charged to. */
  readonly #cancelCause = new Map<string, RequestCharge>();
  /** Arbiter u, requester p, seq → u has sent (p, seq) an OK already. */
  readonly #okSent = new Set<string>();
  /** Messages seen. */
  total = 0;

  /** The trace sink: one JSON line at a time. */
  readonly sink = (line: string): void => {
    const t = JSON.parse(line) as TraceLine;
    if (t.ch !== '' || (t.e !== 'send' && t.e !== 'deliver')) return;
    const link = `${t.from}>${t.to}`;
    if (t.e === 'deliver') {
      const m = this.#inFlight.get(link)!.shift()!;
      this.#handling.set(t.to, { from: t.from, m });
      return;
    }
    const m = t.m!;
    let q = this.#inFlight.get(link);
    if (q === undefined) {
      q = [];
      this.#inFlight.set(link, q);
    }
    q.push(m);
    this.total++;
    this.#charge(t.from, t.to, m).messages++;
  };

  /** Every request seen, in the order first seen. */
  get charges(): RequestCharge[] {
    return [...this.#requests.values()];
  }

  #request(p: ProcessId, seq: number): RequestCharge {
    const key = `${p}:${seq}`;
    let r = this.#requests.get(key);
    if (r === undefined) {
      r = { process: p, seq, h: 0, quorum: 0, messages: 0 };
      this.#requests.set(key, r);
    }
    return r;
  }

  #charge(from: ProcessId, to: ProcessId, m: NonNullable<TraceLine['m']>): RequestCharge {
    switch (m.type) {
      case 'request': {
        const r = this.#request(from, m.seq);
        r.h = m.h!;
        r.quorum++;
        return r;
      }
      case 'release':
        return this.#request(from, m.seq);
      case 'cancel': {
        const cause = this.#handling.get(from);
        if (cause === undefined || cause.m.type !== 'request')
          throw new Error(`P${from} sent cancel outside the handler of a request`);
        const r = this.#request(cause.from, cause.m.seq);
        this.#cancelCause.set(`${from}:${to}:${m.seq}`, r);
        return r;
      }
      case 'cancelled':
        return this.#cancelCause.get(`${to}:${from}:${m.seq}`)!;
      case 'OK': {
        const key = `${from}:${to}:${m.seq}`;
        if (!this.#okSent.has(key)) {
          this.#okSent.add(key);
          return this.#request(to, m.seq);
        }
        const cause = this.#cancelCause.get(key);
        if (cause === undefined) throw new Error(`a second OK ${from}→${to} without a cancel before it`);
        return cause;
      }
      default:
        throw new Error(`unknown message type ${m.type}`);
    }
  }
}

/** What {@link contendedCharges} measured over one run. */
export interface ContendedFigures {
  /** The run completed with no violation and no process stuck. */
  readonly ok: boolean;
  readonly failure: string | null;
  /** Largest `messages / ((3h+3)·|q_{h,k}|)` over the requests, the paper's accounting. */
  readonly perRequest: number;
  /** Largest `messages / ((3h+3)·|q_{h,k}|)` over the exit+entry pairs, causal attribution. */
  readonly perPairCausal: number;
  /** Messages sent in the run and `Σ (3h+3)·|q_{h,k}|` over its requests (the amortised bound). */
  readonly total: number;
  readonly budget: number;
  /** Requests counted, `cancel` messages sent. */
  readonly requests: number;
  readonly cancels: number;
  /** Sum of `messages / |q_{h,k}|` over the requests (for a mean). */
  readonly perQuorum: number;
}

/**
 * One run of {@link contendedRun} measured both ways: every request as the paper counts it
 * (each checked against `(3h+3)·|q|` of its own quorum — the assertion is the caller's), every
 * pair under the causal attribution, and the run's total against the sum of the per-request bounds.
 */
export async function contendedCharges(
  arbiter: HKArbiter,
  seed: number,
  rounds: number,
  check: (charge: RequestCharge, bound: number) => void,
): Promise<ContendedFigures> {
  const accounting = new PaperAccounting();
  const r = await contendedRun(arbiter, seed, rounds, accounting.sink);
  const rows = hOutOfKBounds(arbiter);
  let perRequest = 0;
  let budget = 0;
  let perQuorum = 0;
  for (const c of accounting.charges) {
    const row = rows[c.h - 1]!;
    check(c, (3 * c.h + 3) * c.quorum);
    perRequest = Math.max(perRequest, c.messages / row.messagesContended);
    budget += row.messagesContended;
    perQuorum += c.messages / row.quorumSize.max;
  }
  let perPairCausal = 0;
  for (const [h, m] of pairs(r.records))
    perPairCausal = Math.max(perPairCausal, m / rows[h - 1]!.messagesContended);
  return {
    ok: r.ok,
    failure: r.failure,
    perRequest,
    perPairCausal,
    total: accounting.total,
    budget,
    requests: accounting.charges.length,
    cancels: r.messages.byType[' cancel'] ?? 0,
    perQuorum,
  };
}
