/**
 * Ricart–Agrawala mutual exclusion — the O(n) permission-based baseline the quorum papers compare
 * against (e.g. the group-mutex paper, Sec. 5, "RA1/RA2 … message complexity 2n").
 *
 * Source: G. Ricart and A. K. Agrawala, "An optimal algorithm for mutual exclusion in computer
 * networks", CACM 24(1), 1981 (Sec. 2, the algorithm; Lamport-clock priorities).
 *
 * Rules (process `i`: `highest` = the paper's Highest_Sequence_Number, `request` = Our_Sequence_Number,
 * `requesting`, `replies`, `deferred`):
 * - entry: `request := highest + 1`; send REQUEST(request) to every other process; enter when a
 *   REPLY for this request has come from all `n − 1` of them (a set: duplicates do not count).
 * - REQUEST(ts) from `j` (`highest := max(highest, ts)`): defer the reply if `i` is InCS, or is
 *   requesting with a priority `(request, i)` higher than `(ts, j)`; otherwise REPLY(ts) now.
 * - exit: send the deferred replies; the state flips at once (fire and forget).
 * - abort of a waiting entry: stop requesting and send the deferred replies (a REPLY is a
 *   permission, not a lock: nothing else to give back). Replies still in flight, or sent later by
 *   processes that deferred the withdrawn request, carry its tag and are ignored.
 *
 * Clocks saturate at `CLOCK_MAX` (`tick`/`witness` of `@critsec/transport`, issue 15: a forged
 * `ts = 2^53 − 1` must not push a process's own REQUEST out of the validated range). At the ceiling
 * stamps tie and the order falls back to ids, which alone would let a process that replied to a
 * request and then asked beat it; so a process also defers a REQUEST from a process whose REPLY
 * to its current request it already holds (FIFO: that request was made after the reply). Below
 * the ceiling this is implied by the stamps (no honest run changes); at the ceiling it keeps
 * mutual exclusion, while deadlock and starvation freedom need the stamps and are lost there.
 *
 * Mutual exclusion (FIFO needed only at the clock ceiling): let `(t_i, i)` beat `(t_j, j)` with both InCS, so each replied
 * to the other. If `j` was idle when `i`'s REQUEST came, its `highest` reached `t_i`, so its own REQUEST
 * reached `i` after `i` had issued `t_i` and `i` deferred it until its exit. If `j` was requesting,
 * its REQUEST reached `i` after `i` issued `t_i` (else `t_i > t_j`), and `i` deferred it. If `j`
 * was InCS it deferred `i`. Deadlock and starvation freedom: priorities are totally ordered
 * Lamport stamps and nobody defers the highest pending request.
 *
 * Messages per CS: exactly `2(n − 1)` (no self-messages); waiting time with unit delays and no
 * contention: entry 2 (0 for n = 1), exit 0.
 */
import {
  ConfigurationError,
  type CSFactory,
  CSMICError,
  CSObjectBase,
  type DurableCSObject,
  type Endpoint,
  type ProcessContext,
  type ProcessId,
  ProtocolError,
} from '@critsec/core';
import { PendingCall, reachOf } from '@critsec/core/kit';
import { defineProtocol, type Protocol, tick, timestampSchema, witness } from '@critsec/transport';
import * as v from 'valibot';
import { initialHolders } from './initial.js';
import { beats } from './request-queue.js';
import {
  parseRicartAgrawalaDurable,
  RICART_AGRAWALA_DURABLE_FORMAT,
  type RicartAgrawalaDurableState,
} from './ricart-agrawala-durable.js';

export {
  RICART_AGRAWALA_DURABLE_FORMAT,
  type RicartAgrawalaDurableState,
} from './ricart-agrawala-durable.js';

/** `reach()` typed against Ricart–Agrawala's marks (a typo fails `tsc`). */
const reach = reachOf(['ricart-agrawala:duplicate-reply', 'ricart-agrawala:stale-ignored'] as const);

const raSchema = v.variant('type', [
  v.object({ type: v.literal('REQUEST'), ts: timestampSchema }),
  v.object({ type: v.literal('REPLY'), req: timestampSchema }),
]);

/**
 * Ricart–Agrawala's messages: `REQUEST` carries the request's sequence number `ts` (its priority
 * is `(ts, sender)`); `REPLY` carries the tag `req` (the `ts`) of the request it answers.
 */
export const ricartAgrawalaProtocol: Protocol<RicartAgrawalaMessage> = defineProtocol(
  'ricart-agrawala',
  raSchema,
);

/** A Ricart–Agrawala message. */
export type RicartAgrawalaMessage =
  | {
      /** A request to enter. */
      type: 'REQUEST';
      /** The request's sequence number (its priority is `(ts, sender)`). */
      ts: number;
    }
  | {
      /** The permission to enter. */
      type: 'REPLY';
      /** The tag (`ts`) of the request it answers. */
      req: number;
    };

/** Holds when the schema's output and the documented type are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: SameType<v.InferOutput<typeof raSchema>, RicartAgrawalaMessage> = true;
void schemaMatchesType;

/** Protocol variables of one process, as returned by `inspect()`. */
export interface RicartAgrawalaSnapshot {
  /** Highest sequence number seen. */
  readonly highest: number;
  /** Timestamp of the current request (−1 when none). */
  readonly request: number;
  /** True while a request waits for replies: `entry` in flight, or a recovered request until `recover()`. */
  readonly requesting: boolean;
  /** Processes whose REPLY for the current request arrived (none when there is no request). */
  readonly replies: readonly ProcessId[];
  /** Deferred requests: `[process, ts]`. */
  readonly deferred: readonly [ProcessId, number][];
}

const NONE = -1;

/** One process of Ricart–Agrawala; durable (issue 27: `durableState()`, `recover()`). */
class RicartAgrawalaMutex extends CSObjectBase implements DurableCSObject {
  readonly #endpoint: Endpoint;
  readonly #n: number;
  /** Highest_Sequence_Number. */
  #highest = 0;
  #request = NONE;
  /** The waiting `entry()`. */
  readonly #call: PendingCall;
  readonly #replies: Uint8Array;
  #replyCount = 0;
  /** `deferred[j]`: timestamp of `j`'s deferred request, −1 when none. */
  readonly #deferred: Float64Array;
  #deferredCount = 0;
  /** Recovered with a waiting request and no caller: `recover()` withdraws it. */
  #orphan = false;
  /** Recovered InCS (the crashed application's CS): `recover()` leaves it by the exit rule. */
  #recoveredInCS = false;

  /** @param restored a recovered state, checked by `parseRicartAgrawalaDurable`: the object resumes there. */
  constructor(ctx: ProcessContext, restored?: RicartAgrawalaDurableState) {
    super(ctx.id, restored?.state ?? ctx.initial[ctx.id]!);
    this.#call = new PendingCall(PendingCall.messages('Ricart–Agrawala', ctx.id, 'entry'));
    this.#endpoint = ctx.endpoint;
    this.#n = ctx.n;
    this.#replies = new Uint8Array(ctx.n);
    this.#deferred = new Float64Array(ctx.n).fill(NONE);
    if (restored !== undefined) {
      [this.#highest, this.#request, this.#orphan] = [restored.highest, restored.request, restored.waiting];
      this.#recoveredInCS = restored.state === 'InCS';
      for (const j of restored.replies) this.#replies[j] = 1;
      this.#replyCount = restored.replies.length;
      for (const [j, ts] of restored.deferred) this.#deferred[j] = ts;
      this.#deferredCount = restored.deferred.length;
    } else if (this.state === 'InCS') this.#request = 0;
    this.listen(ricartAgrawalaProtocol, ctx.endpoint, (from, msg) => this.#onMessage(from, msg));
  }

  /** Every protocol variable (for schedule exploration and debugging). */
  inspect(): RicartAgrawalaSnapshot {
    const replies: ProcessId[] = [];
    const deferred: [ProcessId, number][] = [];
    // replies of the current request only (kept in `#replies` until the next entry clears them)
    const current = this.#request !== NONE;
    for (let j = 0; j < this.#n; j++) {
      if (current && this.#replies[j] === 1) replies.push(j);
      if (this.#deferred[j] !== NONE) deferred.push([j, this.#deferred[j]!]);
    }
    return {
      highest: this.#highest,
      request: this.#request,
      requesting: this.#call.waiting || this.#orphan,
      replies,
      deferred,
    };
  }

  /** Every protocol variable as JSON (see {@link RicartAgrawalaDurableState}). */
  durableState(): RicartAgrawalaDurableState {
    const s = this.inspect();
    return {
      format: RICART_AGRAWALA_DURABLE_FORMAT,
      id: this.id,
      n: this.#n,
      state: this.state,
      highest: s.highest,
      request: s.request,
      waiting: s.requesting,
      replies: [...s.replies],
      deferred: s.deferred.map(([j, ts]): [ProcessId, number] => [j, ts]),
    };
  }

  /**
   * Completes a recovery (issue 27): a recovered waiting request is withdrawn as an aborted entry
   * is (the deferred replies are sent; replies still coming carry its tag and are ignored); a
   * recovered CS is left by the exit rule (the deferred replies are sent). Resolves once OutCS; at
   * once on a fresh object.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  async recover(): Promise<void> {
    if (this.pending !== null) {
      throw new CSMICError(
        `Ricart–Agrawala: recover() called on P${this.id} while ${this.pending}() is in flight`,
      );
    }
    if (this.#orphan) this.#withdraw();
    else if (this.#recoveredInCS && this.state === 'InCS') await this.exit();
  }

  /** Withdraws the waiting request: stop requesting and send the deferred replies. */
  #withdraw(): void {
    this.#request = NONE;
    this.#orphan = false;
    if (!this.closed) this.#flushDeferred();
  }

  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    if (this.#orphan) this.#withdraw(); // entry() before recover(): the recovered request goes first
    // Our_Sequence_Number := Highest + 1, saturating at CLOCK_MAX (issue 15: a forged REQUEST
    // must not push this process's own requests out of the validated range)
    const ts = tick(this.#highest);
    this.#highest = ts;
    this.#request = ts;
    this.#replies.fill(0);
    this.#replyCount = 0;
    if (this.#n === 1) {
      this.setState('InCS');
      return Promise.resolve();
    }
    this.#call.begin();
    const msg: RicartAgrawalaMessage = { type: 'REQUEST', ts };
    for (let j = 0; j < this.#n; j++) if (j !== this.id) this.#endpoint.send(j, msg);
    return this.#call.wait(signal, () => this.#withdraw());
  }

  protected async doExit(): Promise<void> {
    this.#request = NONE;
    this.#recoveredInCS = false;
    this.setState('OutCS');
    this.#flushDeferred();
  }

  protected doClose(): void {
    this.#call.close();
  }

  #flushDeferred(): void {
    if (this.#deferredCount === 0) return;
    for (let j = 0; j < this.#n; j++) {
      const ts = this.#deferred[j]!;
      if (ts === NONE) continue;
      this.#deferred[j] = NONE;
      this.#endpoint.send(j, { type: 'REPLY', req: ts });
    }
    this.#deferredCount = 0;
  }

  #onMessage(from: ProcessId, msg: RicartAgrawalaMessage): void {
    if (from === this.id) {
      // no process sends itself anything (entry asks the n − 1 others): reported and dropped
      // before it touches anything, the clock included
      this.reportError(
        new ProtocolError(`Ricart–Agrawala: P${this.id} got ${msg.type} from itself`, { from }),
      );
      return;
    }
    if (msg.type === 'REQUEST') {
      this.#highest = witness(this.#highest, msg.ts);
      // `replies[from]`: `from` answered our request before making its own, so its request is the
      // later one. Lamport clocks already say so (its stamp exceeds ours) unless they sit at the
      // ceiling CLOCK_MAX, where stamps tie and only this keeps the two from both entering.
      const defer =
        this.state === 'InCS' ||
        ((this.#call.waiting || this.#orphan) &&
          (beats(this.#request, this.id, msg.ts, from) || this.#replies[from] === 1));
      if (defer) {
        // at most one deferred request per process: the newest (an older one was withdrawn)
        const prev = this.#deferred[from]!;
        if (prev === NONE) this.#deferredCount++;
        if (msg.ts > prev) this.#deferred[from] = msg.ts;
      } else {
        this.#endpoint.send(from, { type: 'REPLY', req: msg.ts });
      }
      return;
    }
    // REPLY
    if (!(this.#call.waiting || this.#orphan) || msg.req !== this.#request) {
      reach('ricart-agrawala:stale-ignored');
      return;
    }
    if (this.#replies[from] === 1) {
      reach('ricart-agrawala:duplicate-reply');
      return;
    }
    this.#replies[from] = 1;
    if (++this.#replyCount === this.#n - 1) this.#call.resolve(() => this.setState('InCS'));
  }
}

/**
 * Ricart–Agrawala mutual exclusion (CACM 1981): every request asks all other `n − 1` processes
 * for permission. The O(n) baseline for Maekawa: exactly `2(n − 1)` messages per CS (REQUEST and
 * REPLY; no self-messages), waiting time 2 time units with unit delays (0 for n = 1), exit 0.
 *
 * `entry({ signal })` can be aborted while waiting (the deferred replies are sent; nothing else is
 * held) and rejects with `AbortError`. Objects expose `inspect()` (see {@link RicartAgrawalaSnapshot}).
 *
 * **Crash recovery** (issue 27): the objects are `DurableCSObject`s of `@critsec/core`.
 * `durableState()` returns the paper's variables and the CS state as JSON
 * ({@link RicartAgrawalaDurableState}); given it as `ctx.recovered`, the factory builds the object
 * exactly there (a waiting request counts as OutCS), and `recover()` withdraws that request or,
 * when the state was InCS, runs the exit rule; it resolves once OutCS (at once on a fresh object).
 *
 * @throws ConfigurationError (from the factory) if the initial configuration does not have `n`
 *   states each `'InCS'` or `'OutCS'`, if more than one process starts InCS, or if `ctx.recovered`
 *   is not a state of this process (malformed, another algorithm's, process's or cluster's, or one
 *   the rules cannot reach).
 */
export function ricartAgrawala(): CSFactory {
  return (ctx) => {
    const holders = initialHolders('ricartAgrawala', ctx);
    if (holders.length > 1) {
      throw new ConfigurationError(
        `ricartAgrawala: mutual exclusion allows at most one process InCS initially, got ${holders.map((h) => `P${h}`).join(', ')}`,
      );
    }
    // issue 27: a restarted process resumes from its recovered state, checked first
    const restored = ctx.recovered === undefined ? undefined : parseRicartAgrawalaDurable(ctx.recovered, ctx);
    return new RicartAgrawalaMutex(ctx, restored);
  };
}
