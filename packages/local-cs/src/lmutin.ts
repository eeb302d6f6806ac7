/**
 * li-LMUTIN — the generalized local li-mutual inclusion, the (l_i, |N_i|+1)-CS on any graph.
 *
 * Source: Kamei & Kakugawa, "An asynchronous message-passing distributed algorithm for the
 * generalized local critical section problem", Algorithms 10(2):38, 2017, Section 3, Algorithms 1
 * (local variables) and 2 (exit-sequence, entry-sequence, handlers); Lemmas 1–3.
 *
 * Leaving the CS needs permission: Exit-Sequence sends ⟨Request, ts_i, P_i⟩ to every P_j ∈
 * N_i ∪ {P_i} and waits for a ⟨Grant⟩ from each (`nGrants_i = |N_i| + 1`); each P_j grants at most
 * `|N_j| − l_j + 1` exits at a time (`grantedTo_j`), so at least l_j of N_j ∪ {P_j} stay InCS.
 * Entry-Sequence enters at once and returns the permissions with ⟨Release, P_i⟩. Earlier requests
 * (Lamport timestamps, ties by id) preempt later grants: ⟨Preempt⟩ / ⟨Relinquish⟩. The arbiter
 * half is `arbiter.ts`.
 *
 * Implementation notes (named in the README):
 * - `nGrants_i` is a set of granters (as in Algorithm 5) rather than a counter;
 * - every message carries the sender's Lamport clock `ts` (the paper attaches it implicitly) and
 *   the tag `req` (the requester's sequence number) of the request it is about; a Preempt for a
 *   grant this process no longer waits on is ignored (Algorithm 2 answers every Preempt received InCS — `rules: 'printed'`);
 * - a Grant for no current request (after an aborted exit) is handed back with a Release.
 *
 * Crash recovery (issue 27): `durableState()` returns every variable of Algorithm 1 as JSON
 * ({@link LmutinDurableState}); given it as `ctx.recovered`, the factory builds the object exactly
 * there, and `recover()` then withdraws a waiting exit and enters if OutCS (InCS needs no
 * permission: k_i = |N_i| + 1), so a recovered process rests InCS.
 */
import {
  ConfigurationError,
  type CSFactory,
  CSMICError,
  CSObjectBase,
  type DurableCSObject,
  type Endpoint,
  type Graph,
  type ProcessContext,
  type ProcessId,
} from '@critsec/core';
import { closedNeighborhood, PendingCall } from '@critsec/core/kit';
import { type Mark, reach } from './marks.js';
import { defineProtocol, type Protocol, tick, timestampSchema, witness } from '@critsec/transport';
import * as v from 'valibot';
import { Arbiter, type ArbiterRules, type ArbiterSnapshot } from './arbiter.js';
import { arbiterDurable, restoreArbiter } from './arbiter-durable.js';
import { LMUTIN_DURABLE_FORMAT, type LmutinDurableState, parseLmutinDurable } from './lmutin-durable.js';
import { type Bounds, localBounds, assertSafeInitial } from './config.js';
import { assertGraph, notNeighbour } from './validate.js';

const msg = <T extends string>(type: T) =>
  v.strictObject({ type: v.literal(type), req: timestampSchema, ts: timestampSchema });

/** An LMUTIN message (Algorithm 2). The sender P_i of the paper is the transport's `from`. */
export type LmutinMessage = {
  /** The message's name. */
  type: 'Request' | 'Grant' | 'Release' | 'Preempt' | 'Relinquish';
  /** The tag of the request the message is about: the requester's sequence number, a counter ≤ CLOCK_MAX. */
  req: number;
  /** The sender's Lamport clock; for Request, the request's timestamp ts_i. */
  ts: number;
};

const lmutinSchema = v.variant('type', [
  msg('Request'),
  msg('Grant'),
  msg('Release'),
  msg('Preempt'),
  msg('Relinquish'),
]);

/** Holds when the schema's output and the documented type are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: SameType<v.InferOutput<typeof lmutinSchema>, LmutinMessage> = true;
void schemaMatchesType;

/** LMUTIN's messages (Algorithm 2), validated at the boundary (see {@link LmutinMessage}). */
export const lmutinProtocol: Protocol<LmutinMessage> = defineProtocol('lmutin', lmutinSchema);

/** Rare paths of LMUTIN (coverage marks via `reach()`). */
export const lmutinRarePaths = [
  'lmutin:preempt',
  'lmutin:relinquish',
  'lmutin:relinquished',
  'lmutin:regrant-relinquisher',
  'lmutin:preempt-ignored',
] as const satisfies readonly Mark[];

/** Options of {@link lmutin}. */
export interface LmutinOptions {
  /** The communication graph (`@critsec/core` Graph; build one with `ring`, `grid`, … or `graphFromAdjacency`). */
  readonly graph: Graph;
  /** l_i per process, `0 ≤ l_i ≤ |N_i|` (k_i = |N_i| + 1). */
  readonly l: Bounds;
}

/** Protocol variables of one LMUTIN process (Algorithm 1's names), JSON-serializable. */
export interface LmutinSnapshot extends ArbiterSnapshot {
  /** The process's Lamport clock. */
  readonly ts: number;
  /** Tag of the request whose grants this process waits for or holds. */
  readonly request: number;
  /** Whether it waits for grants (an `exit()` in flight). */
  readonly waiting: boolean;
  /** The processes whose grant it holds for `request` (NGrants), ascending. */
  readonly nGrants: readonly ProcessId[];
}

/** @internal test-only variants: the printed rules. */
export interface LmutinInternals {
  /** The arbiter's rules (default `tagged`). */
  readonly rules?: ArbiterRules;
}

/** One li-LMUTIN process (Algorithms 1–2). */
export class LmutinCS extends CSObjectBase implements DurableCSObject {
  /** N_i ∪ {P_i}, sorted. */
  readonly neighborhood: readonly ProcessId[];
  /** `l_i`. */
  readonly l: number;
  readonly #endpoint: Endpoint;
  readonly #member: Uint8Array;
  readonly #arbiter: Arbiter;
  readonly #rules: ArbiterRules;
  /** Lamport clock ts_i. */
  #ts = 0;
  /**
   * Tag of the current request: this process's request sequence number (0: the initial grants of
   * Algorithm 1). Separate from ts_i so that requests stay distinct when clocks saturate.
   */
  #request = 0;
  /** nGrants_i: the processes whose Grant this process holds for `#request`. */
  readonly #nGrants = new Set<ProcessId>();
  /** The waiting `exit()` (Exit-Sequence until every grant of N_i ∪ {P_i} is here). */
  readonly #call: PendingCall;
  /** Recovered with a waiting exit and no caller (a crash cut its `exit()`): `recover()` withdraws it. */
  #orphan = false;

  /**
   * Process `ctx.id` of LMUTIN on `graph` with its bound `l` (use {@link lmutin}); `internals` is
   * for tests only; `restored`, a recovered state checked by `parseLmutinDurable`, replaces
   * Algorithm 1's initial values.
   */
  constructor(
    ctx: ProcessContext,
    graph: Graph,
    l: number,
    internals: LmutinInternals,
    restored?: LmutinDurableState,
  ) {
    super(ctx.id, restored?.state ?? ctx.initial[ctx.id]!);
    this.#call = new PendingCall(PendingCall.messages('LMUTIN', ctx.id, 'exit'));
    this.l = l;
    this.#endpoint = ctx.endpoint;
    this.#rules = internals.rules ?? 'tagged';
    this.neighborhood = closedNeighborhood(graph, ctx.id);
    this.#member = new Uint8Array(ctx.n);
    for (const j of this.neighborhood) this.#member[j] = 1;
    this.#arbiter = new Arbiter(
      this.neighborhood.length - l,
      {
        grant: (to, tag) => this.#send(to, 'Grant', tag),
        preempt: (to, tag) => this.#send(to, 'Preempt', tag),
      },
      this.#rules,
      'lmutin',
    );
    // Algorithm 1: grantedTo_i = {(0, P_j) : P_j ∈ N_i ∪ {P_i} OutCS in C0}; an OutCS process holds its grants
    for (const j of this.neighborhood)
      if (ctx.initial[j] === 'OutCS') this.#arbiter.grantedTo.set(j, { ts: 0, tag: 0 });
    if (this.state === 'OutCS') for (const j of this.neighborhood) this.#nGrants.add(j);
    if (restored !== undefined) this.#restore(restored);
    this.listen(lmutinProtocol, ctx.endpoint, (from, m) => this.#onMessage(from, m));
  }

  /** Every protocol variable (Algorithm 1), for exploration and debugging. */
  inspect(): LmutinSnapshot {
    return {
      ts: this.#ts,
      request: this.#request,
      waiting: this.#call.waiting || this.#orphan,
      nGrants: [...this.#nGrants].sort((a, b) => a - b),
      ...this.#arbiter.snapshot(),
    };
  }

  /** Every variable of Algorithm 1 as JSON (issue 27; see {@link LmutinDurableState}). */
  durableState(): LmutinDurableState {
    return {
      format: LMUTIN_DURABLE_FORMAT,
      id: this.id,
      n: this.#member.length,
      neighborhood: [...this.neighborhood],
      l: this.l,
      state: this.state,
      ts: this.#ts,
      request: this.#request,
      waiting: this.#call.waiting || this.#orphan,
      nGrants: [...this.#nGrants].sort((a, b) => a - b),
      arbiter: arbiterDurable(this.#arbiter),
    };
  }

  /**
   * Completes a recovery (issue 27): a recovered waiting exit is withdrawn as an aborted one is
   * (Release to N_i ∪ {P_i}); a recovered OutCS process enters (Entry-Sequence, at once). Resolves
   * InCS — the state LMUTIN never needs permission to be in; at once on a fresh object InCS.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  async recover(): Promise<void> {
    if (this.pending !== null) {
      throw new CSMICError(`LMUTIN: recover() called on P${this.id} while ${this.pending}() is in flight`);
    }
    if (this.#orphan) this.#withdraw();
    else if (this.state === 'OutCS') await this.entry();
  }

  #restore(s: LmutinDurableState): void {
    [this.#ts, this.#request, this.#orphan] = [s.ts, s.request, s.waiting];
    this.#nGrants.clear();
    for (const j of s.nGrants) this.#nGrants.add(j);
    restoreArbiter(this.#arbiter, s.arbiter);
  }

  /** Exit-Sequence: request every grant of N_i ∪ {P_i}, wait for all, then OutCS. */
  protected doExit(signal: AbortSignal | undefined): Promise<void> {
    if (this.#orphan) this.#withdraw(); // exit() before recover(): the recovered request goes first
    this.#ts = tick(this.#ts);
    this.#request = tick(this.#request);
    this.#nGrants.clear();
    this.#call.begin();
    // ⟨Request, ts_i, P_i⟩: ts carries ts_i (the priority), req the tag
    this.#multicast('Request', this.#request);
    return this.#call.wait(signal, () => this.#withdraw());
  }

  /** Entry-Sequence: InCS at once, then Release to N_i ∪ {P_i}. */
  protected async doEntry(): Promise<void> {
    this.setState('InCS');
    this.#nGrants.clear();
    this.#multicast('Release', this.#request);
  }

  protected doClose(): void {
    this.#call.close();
  }

  /** An aborted exit: withdraw the request everywhere (Release), stay InCS. */
  #withdraw(): void {
    this.#orphan = false;
    this.#nGrants.clear();
    if (!this.closed) this.#multicast('Release', this.#request);
  }

  #onGrant(j: ProcessId, req: number): void {
    if (!this.#call.waiting || req !== this.#request) {
      if (!this.#call.waiting && this.state === 'InCS' && req === this.#request) return;
      if (this.state === 'OutCS' && req === this.#request) return;
      // a grant for a withdrawn request: hand it back so P_j's slot is not lost
      reach('lmutin:grant-returned');
      this.#send(j, 'Release', req);
      return;
    }
    this.#nGrants.add(j);
    if (this.#nGrants.size === this.neighborhood.length) this.#call.resolve(() => this.setState('OutCS'));
  }

  #onPreempt(j: ProcessId, req: number): void {
    if (this.#rules === 'printed') {
      if (this.state !== 'InCS') return;
      this.#nGrants.delete(j);
      this.#send(j, 'Relinquish', this.#request);
      return;
    }
    if (!this.#call.waiting || req !== this.#request || !this.#nGrants.has(j)) {
      reach('lmutin:preempt-ignored');
      return;
    }
    reach('lmutin:relinquish');
    this.#nGrants.delete(j);
    this.#send(j, 'Relinquish', req);
  }

  #onMessage(from: ProcessId, m: LmutinMessage): void {
    if (this.#member[from] !== 1) {
      this.reportError(notNeighbour('LMUTIN', this.id, from, m.type));
      return;
    }
    this.#ts = witness(this.#ts, m.ts);
    switch (m.type) {
      case 'Request':
        this.#arbiter.onRequest(from, m.ts, m.req);
        return;
      case 'Release':
        this.#arbiter.onRelease(from, m.req);
        return;
      case 'Relinquish':
        this.#arbiter.onRelinquish(from, m.req);
        return;
      case 'Grant':
        this.#onGrant(from, m.req);
        return;
      case 'Preempt':
        this.#onPreempt(from, m.req);
        return;
    }
  }

  #send(to: ProcessId, type: LmutinMessage['type'], req: number): void {
    this.#endpoint.send(to, { type, req, ts: this.#ts });
  }

  #multicast(type: LmutinMessage['type'], req: number): void {
    const m = { type, req, ts: this.#ts };
    for (const j of this.neighborhood) this.#endpoint.send(j, m);
  }
}

/**
 * li-LMUTIN (Sec. 3, Algorithms 1–2): the generalized local (l_i, |N_i| + 1)-CS on `graph` — at
 * least l_i processes of N_i ∪ {P_i} are InCS at any time. `exit()` waits for a Grant from every
 * process of N_i ∪ {P_i}; `entry()` completes at once.
 *
 * Messages per exit+entry pair (Lemma 3, self-messages counted): 3(|N_i|+1) without contention
 * (Request, Grant, Release), at most 6(|N_i|+1) with (Preempt, Relinquish, a second Grant); see
 * {@link localCsBounds}. `exit({ signal })` can be withdrawn while waiting: the request is released
 * everywhere (|N_i|+1 Release), the process stays InCS and the call rejects with `AbortError`.
 *
 * @param options `{ graph, l }`; l as one number, an array, or `(i, degree) => l_i`.
 * @throws ConfigurationError (from the factory) if the graph is not a valid `Graph` over the
 *   cluster's n, if some `l_i` is outside `0 ≤ l_i ≤ |N_i|`, or if the initial configuration has
 *   fewer than l_i InCS in some N_i ∪ {P_i} (the message names the process and the count).
 */
export function lmutin(options: LmutinOptions): CSFactory {
  return lmutinWith(options, {});
}

/** {@link lmutin} with test-only variants. @internal */
export function lmutinWith(options: LmutinOptions, internals: LmutinInternals): CSFactory {
  const graph = assertGraph(options?.graph, 'lmutin');
  const spec = localBounds(
    graph,
    options.l,
    graph.neighbors.map((nb) => nb.length + 1),
  );
  return (ctx) => {
    if (ctx.n !== graph.n) {
      throw new ConfigurationError(
        `lmutin: the graph has n = ${graph.n} processes but the cluster has n = ${ctx.n}`,
      );
    }
    assertSafeInitial(spec, ctx.initial, 'lmutin');
    const l = spec.l[ctx.id]!;
    // issue 27: a restarted process resumes from its recovered state, checked first
    const restored =
      ctx.recovered === undefined
        ? undefined
        : parseLmutinDurable(ctx.recovered, ctx, closedNeighborhood(graph, ctx.id), l);
    return new LmutinCS(ctx, graph, l, internals, restored);
  };
}
