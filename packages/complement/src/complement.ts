/*
 * The complement transform Co-A — Kamei & Kakugawa, "Asynchronous message-passing distributed
 * algorithm for the global critical section problem", IJNC 9(2), 2019, Section 2, Theorem 1
 * (the Complementary Theorem, after Kakugawa 2015); the local version is Kamei & Kakugawa,
 * Algorithms 10(38), 2017, Theorem 2.
 *
 * Co-A is A with the process states swapped: Co-A.state_i = flip(A.state_i), Co-A.Entry() is
 * A.Exit() and Co-A.Exit() is A.Entry(). If A solves the global (l,k)-CS problem, Co-A solves
 * the (n−k, n−l)-CS problem; locally (l_i,k_i) becomes (|N_i|+1−k_i, |N_i|+1−l_i).
 */
import {
  type CSCallOptions,
  type CSFactory,
  type CSObject,
  CSObjectBase,
  type CSState,
  ConfigurationError,
  complementSpec,
  initialConfiguration,
  isCSObject,
  isDurableCSObject,
  type JsonValue,
  type GlobalSpec,
  type LocalSpec,
  type ProcessContext,
  type ProcessId,
} from '@critsec/core';
import { flipState } from '@critsec/core/kit';

/**
 * Options of {@link complement} for an inner object that takes a request (`Req` not `void`).
 *
 * Co-A's `exit()` is A's `entry(req)`, and `exit()` has no request parameter: the request must
 * come from somewhere else. `request(id)` is called at every Co-A exit of process `id` and its
 * value is passed to the inner `entry`.
 */
export interface ComplementRequestOptions<Req> {
  /** The request Co-A's `exit()` hands to the inner `entry(req)` (called once per exit). */
  readonly request: (id: ProcessId) => Req;
}

/**
 * The options tuple of {@link complement}: nothing for plain objects (`Req = void`); a
 * `{ request }` for request-taking ones, which otherwise cannot be complemented.
 */
export type ComplementArgs<Req> = [Req] extends [void] ? [] : [options: ComplementRequestOptions<Req>];

/** A CS object made by {@link complement}: the inner object with its states swapped. */
export interface ComplementObject<Req = void> extends CSObject {
  /** The object whose states this one swaps (shared: calling it directly moves this one too). */
  readonly inner: CSObject<Req>;
  /**
   * `{ inner: inner.inspect() }` — present only when the inner object has `inspect()` (the
   * schedule explorer of `@critsec/testing` deduplicates states with it).
   */
  readonly inspect?: () => unknown;
  /**
   * Crash recovery (issue 27): the inner object's `durableState()` — Co-A's state *is* A's, only
   * renamed. Present only when the inner object is a `DurableCSObject` (the complement of a
   * durable object is durable; of any other, not).
   */
  readonly durableState?: () => JsonValue;
  /**
   * The inner object's `recover()`: A's recovery, seen with the states swapped (A ending OutCS
   * leaves Co-A InCS). Present with {@link durableState}.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  readonly recover?: () => Promise<void>;
}

type AnyEntry = (...args: unknown[]) => Promise<void>;

function isSpec(x: unknown): x is GlobalSpec | LocalSpec {
  return typeof x === 'object' && x !== null && typeof (x as { kind?: unknown }).kind === 'string';
}

/**
 * Co-A for one process (global-CS paper, Thm. 1): the inner object `A` with InCS and OutCS
 * swapped. `entry` runs `A.exit`, `exit` runs `A.entry`; the state flips exactly when A's flips
 * (A's `statechange` drives ours), so the instant of the flip is the inner algorithm's.
 */
class ComplementCS<Req> extends CSObjectBase implements ComplementObject<Req> {
  readonly inner: CSObject<Req>;
  readonly inspect?: () => unknown;
  readonly durableState?: () => JsonValue;
  readonly recover?: () => Promise<void>;
  readonly #request: ((id: ProcessId) => Req) | undefined;

  constructor(inner: CSObject<Req>, request: ((id: ProcessId) => Req) | undefined) {
    super(inner.id, flipState(inner.state));
    if (inner.takesRequest && typeof request !== 'function') {
      throw new ConfigurationError(
        `complement: P${inner.id}'s object takes a request (entry(req)), but Co-A's exit() calls that entry ` +
          'and has no request to pass; give complement(x, { request: (id) => req }), or complement a plain ' +
          '(Req = void) CS object',
      );
    }
    this.inner = inner;
    this.#request = request;
    // Thm. 1: Co-A.state_i = flip(A.state_i) at every instant — A's flip is Co-A's
    this.disposeOnClose(inner.on('statechange', (s) => this.setState(flipState(s))));
    this.forwardErrors(inner);
    const inspectInner = (inner as { inspect?: unknown }).inspect;
    if (typeof inspectInner === 'function') {
      this.inspect = () => ({ inner: (inspectInner as () => unknown).call(inner) });
    }
    if (isDurableCSObject(inner)) {
      this.durableState = () => inner.durableState();
      this.recover = () => inner.recover();
    }
  }

  /** Co-A.Entry() = A.Exit(). */
  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    return this.inner.exit({ signal });
  }

  /** Co-A.Exit() = A.Entry() (with the configured request when A takes one). */
  protected doExit(signal: AbortSignal | undefined): Promise<void> {
    const opts: CSCallOptions = { signal };
    const entry = this.inner.entry as unknown as AnyEntry;
    if (this.inner.takesRequest) return entry.call(this.inner, this.#request!(this.id), opts);
    return entry.call(this.inner, opts);
  }

  /** Closes the inner object too: one process's handle cannot leave the protocol by halves. */
  protected async doClose(): Promise<void> {
    await this.inner.close();
  }
}

function complementObject<Req>(
  inner: CSObject<Req>,
  request: ((id: ProcessId) => Req) | undefined,
): ComplementObject<Req> {
  return new ComplementCS(inner, request);
}

function complementFactory<Req>(
  factory: CSFactory<Req>,
  request: ((id: ProcessId) => Req) | undefined,
): CSFactory {
  return (ctx: ProcessContext) => {
    // validated here, not left to the inner factory: flipState maps anything but 'InCS' to 'InCS',
    // so a malformed state would reach a user's inner factory as a plausible one
    const flipped: readonly CSState[] = Object.freeze(
      initialConfiguration(ctx.n, ctx.initial).map(flipState),
    );
    // issue 27: Co-A's recovered state is A's; A's factory checks it, and resumes A in it
    const { recovered } = ctx;
    const inner = factory({
      ...{ id: ctx.id, n: ctx.n, endpoint: ctx.endpoint, initial: flipped },
      ...(recovered === undefined ? {} : { recovered }),
      ...(ctx.clock === undefined ? {} : { clock: ctx.clock }), // issue 28: A's time bounds need it
      ...(ctx.suspicions === undefined ? {} : { suspicions: ctx.suspicions }),
    });
    const expected = flipped[ctx.id];
    if (inner.id !== ctx.id || (recovered === undefined && inner.state !== expected)) {
      void inner.close();
      throw new ConfigurationError(
        `complement: the inner factory made P${inner.id} ${inner.state} for process ${ctx.id}, ` +
          `but the flipped initial configuration says P${ctx.id} ${String(expected)}`,
      );
    }
    if (recovered !== undefined && !isDurableCSObject(inner)) {
      void inner.close();
      throw new ConfigurationError(
        `complement: P${ctx.id} was given a recovered state, but the inner object is not durable (no DurableCSObject): its complement cannot resume after a crash`,
      );
    }
    try {
      return complementObject(inner, request);
    } catch (err) {
      void inner.close();
      throw err;
    }
  };
}

/**
 * The complement transform Co-A (global-CS paper, Sec. 2, Thm. 1; local-CS paper, Thm. 2).
 *
 * - **factory** → a factory whose objects are Co-A: it flips the initial configuration
 *   (InCS ↔ OutCS for every process) before handing the context down to `x`, then swaps the
 *   made object's states and methods. Same endpoint: Co-A is A's protocol, only renamed.
 * - **CS object** → a view of it with the same swap. The view shares the object: calling the
 *   object directly moves the view too, and closing the view closes the object.
 * - **spec** → the complement problem: global `(l, k, n) ↦ (n−k, n−l)`, local
 *   `(l_i, k_i) ↦ (|N_i|+1−k_i, |N_i|+1−l_i)` (core's `complementSpec`).
 *
 * The result is always a plain CS object (`entry()` takes no request: Co-A.Entry() is A.Exit(),
 * which takes none). A request-taking A needs `{ request: (id) => req }`, which Co-A's `exit()`
 * passes to A's `entry(req)`; without it the complement is refused.
 *
 * Co-A aborts exactly where A does: an aborted Co-A `entry` is an aborted A `exit`.
 *
 * Crash recovery (issue 27): Co-A of a durable A is durable — its `durableState()` is A's, the
 * factory hands `ctx.recovered` to A's factory, and `recover()` is A's (so Co-A ends where A's
 * recovery leaves A, states swapped). Of a non-durable A, Co-A is not durable either.
 *
 * @throws ConfigurationError for a request-taking object without `request` (when the object is
 *   made, before any message), an inner factory that ignores the flipped initial configuration
 *   (or refuses `ctx.recovered`, or is not durable when given one),
 *   a spec without a complement (h-out-of-k, group), or an argument that is none of the three.
 *
 * @example
 * ```ts
 * const kmex = complement(mutin({ l: n - k, coterie }));   // k-mutual exclusion
 * complement(globalSpec(1, 5, 5));                         // → (0, 4)-CS over 5
 * ```
 */
export function complement<Req = void>(factory: CSFactory<Req>, ...options: ComplementArgs<Req>): CSFactory;
export function complement<Req = void>(
  cs: CSObject<Req>,
  ...options: ComplementArgs<Req>
): ComplementObject<Req>;
export function complement<S extends GlobalSpec | LocalSpec>(spec: S): S;
export function complement(
  x: CSFactory<unknown> | CSObject<unknown> | GlobalSpec | LocalSpec,
  options?: ComplementRequestOptions<unknown>,
): CSFactory | ComplementObject<unknown> | GlobalSpec | LocalSpec {
  const request = options?.request;
  if (request !== undefined && typeof request !== 'function') {
    throw new ConfigurationError(
      `complement: options.request must be a function (id) => request, got ${typeof request}`,
    );
  }
  if (typeof x === 'function') return complementFactory(x, request);
  if (isCSObject(x)) return complementObject(x, request);
  if (isSpec(x)) return complementSpec(x);
  throw new ConfigurationError(
    `complement: expected a CS factory, a CS object or a global/local problem spec, got ${
      x === null ? 'null' : typeof x
    }`,
  );
}
