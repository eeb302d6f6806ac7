import { callOptionsError } from './call-options.js';
import type { CSCallOptions, CSEvents, CSObject, EntryArgs } from './cs-object.js';
import { AbortError, CSMICError, type ProtocolError } from './errors.js';
import { Emitter } from './events.js';
import type { Endpoint } from './message.js';
import type { CSState, ProcessId } from './process.js';

/**
 * What {@link CSObjectBase.listen} subscribes to: a protocol whose `listen` delivers only valid
 * messages (`defineProtocol` of `@critsec/transport`) and reports the others as `ProtocolError`.
 */
export interface MessageSource<M> {
  /** Calls `handler` with every valid message on `endpoint`; returns the unsubscribe function. */
  listen(
    endpoint: Endpoint,
    handler: (from: ProcessId, msg: M) => void,
    onInvalid: (err: ProtocolError) => void,
  ): () => void;
}

/** Splits `entry`'s arguments into request and options, by whether the object takes a request. */
export function splitEntryArgs<Req>(
  takesRequest: boolean,
  args: readonly unknown[],
): {
  /** The request (`undefined` for objects that take none). */
  req: Req;
  /** The call's options, if given. */
  opts: CSCallOptions | undefined;
} {
  if (takesRequest) return { req: args[0] as Req, opts: args[1] as CSCallOptions | undefined };
  return { req: undefined as Req, opts: args[0] as CSCallOptions | undefined };
}

/**
 * Base class that enforces CSMIC (global-CS paper, Def. 1) for every algorithm, so an
 * implementation only writes the protocol:
 *
 * - `entry` while InCS, `exit` while OutCS, any call while another is in flight, and any call
 *   after `close()` reject with {@link CSMICError} — synchronously decided, nothing sent;
 * - a call whose signal is already aborted rejects with `AbortError`, nothing sent;
 * - options that are not `{ signal? }` with an `AbortSignal` (e.g. `{ signal: {} }`, or a
 *   request given to an object that takes none) reject with `ConfigurationError`, nothing sent;
 * - a rejected `doEntry`/`doExit` (abort, close) must leave the state unchanged;
 * - `close()` runs what {@link CSObjectBase.listen}, {@link CSObjectBase.forwardErrors} and
 *   {@link CSObjectBase.disposeOnClose} registered, then `doClose()`; a protocol's waits are
 *   `PendingCall`s (one "wait until …" with its abort signal and close, written once).
 *
 * ## How the state flips — the one rule
 *
 * Every flip is {@link CSObjectBase.setState}, called at the instant the object's algorithm flips
 * the state, and at the latest when the call completes; `statechange` fires synchronously from
 * it, so an observer (the simulator's trace, an object built on this one) sees the flip at that
 * instant. Where that instant is:
 *
 * - **a protocol**: in the message handler or the step of `doEntry`/`doExit` where its paper flips
 *   — Maekawa's LOCKED handler (R2), the last line of MUTIN's Exit(), usually as the `commit` of
 *   `PendingCall.resolve`, so the state flips before the call's promise settles;
 * - **an object built on inner CS objects**, where its construction puts the flip: `complement`
 *   (Co-A) when A flips, from A's `statechange` — Co-A.state_i = flip(A.state_i) at every instant
 *   (global-CS paper, Thm. 1); `compose` right after its first inner call completes — Algorithm 3's
 *   `a.Exit(); /* state := OutCS *\/ b.Exit()`;
 * - **an algorithm with no earlier instant** (a test double that grants at once): at completion —
 *   the base calls `setState(to)` when `doEntry`/`doExit` resolves, a no-op for every object
 *   above, which has flipped already.
 *
 * These are the papers' instants and they differ observably, so they are not merged: flipping
 * `compose` on a's `statechange` reorders its flip against other processes' messages at the same
 * virtual time (2 of the recorded gcs-tree traces change), and flipping `complement` when A's call
 * completes would put Co-LMUTIN's flip after LMUTIN's Release messages.
 */
export abstract class CSObjectBase<Req = void> implements CSObject<Req> {
  readonly id: ProcessId;
  readonly takesRequest: boolean;
  declare readonly '~request'?: Req;
  readonly #events: Emitter<CSEvents>;
  #state: CSState;
  #pending: 'entry' | 'exit' | null = null;
  #closed = false;
  /** Run by `close()`, in registration order, before `doClose()`. */
  readonly #disposers: (() => void)[] = [];

  /** Process `id`'s object in state `initial`; `options.takesRequest`: whether `entry` takes a request as its first argument (default false). */
  protected constructor(id: ProcessId, initial: CSState, options: { takesRequest?: boolean } = {}) {
    this.id = id;
    this.#state = initial;
    this.takesRequest = options.takesRequest ?? false;
    this.#events = new Emitter<CSEvents>((err) =>
      this.#events.emit('error', err instanceof Error ? err : new Error(String(err))),
    );
  }

  get state(): CSState {
    return this.#state;
  }

  get pending(): 'entry' | 'exit' | null {
    return this.#pending;
  }

  /** True once `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  entry(...args: EntryArgs<Req>): Promise<void> {
    const { req, opts } = splitEntryArgs<Req>(this.takesRequest, args);
    const bad = callOptionsError('entry', this.id, opts);
    if (bad !== null) return Promise.reject(bad);
    return this.#invoke('entry', 'OutCS', 'InCS', opts?.signal, () => this.doEntry(req, opts?.signal));
  }

  exit(opts?: CSCallOptions): Promise<void> {
    const bad = callOptionsError('exit', this.id, opts);
    if (bad !== null) return Promise.reject(bad);
    return this.#invoke('exit', 'InCS', 'OutCS', opts?.signal, () => this.doExit(opts?.signal));
  }

  on<E extends keyof CSEvents>(event: E, fn: (value: CSEvents[E]) => void): () => void {
    return this.#events.on(event, fn);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const dispose of this.#disposers) dispose();
    await this.doClose();
  }

  /** The protocol's entry: resolve once InCS (flip with `setState('InCS')` when the paper does). */
  protected abstract doEntry(req: Req, signal: AbortSignal | undefined): Promise<void>;
  /** The protocol's exit: resolve once OutCS (flip with `setState('OutCS')` when the paper does). */
  protected abstract doExit(signal: AbortSignal | undefined): Promise<void>;
  /** Stop handling messages; reject the call in flight (if any). */
  protected abstract doClose(): Promise<void> | void;

  /**
   * Flips the state and fires `statechange` (no-op when unchanged): the only way the state
   * changes — call it at the instant the algorithm flips (see "How the state flips" above).
   */
  protected setState(next: CSState): void {
    if (next === this.#state) return;
    this.#state = next;
    this.#events.emit('statechange', next);
  }

  /** Reports a non-fatal problem (a dropped message, …) through the `error` event. */
  protected reportError(err: Error): void {
    this.#events.emit('error', err);
  }

  /** Runs `dispose` when the object closes (in registration order, before `doClose`). */
  protected disposeOnClose(dispose: () => void): void {
    this.#disposers.push(dispose);
  }

  /**
   * Receives `protocol`'s messages on `endpoint` until `close()`: valid ones go to `onMessage`
   * (synchronous and atomic, like the papers' handlers), invalid ones to the `error` event.
   */
  protected listen<M>(
    protocol: MessageSource<M>,
    endpoint: Endpoint,
    onMessage: (from: ProcessId, msg: M) => void,
  ): void {
    this.disposeOnClose(protocol.listen(endpoint, onMessage, (err) => this.reportError(err)));
  }

  /**
   * For an object built on inner CS objects (a composition, a transform, MUTIN's `mx`): the
   * inner object's `error` events become this object's, until `close()`.
   */
  protected forwardErrors(inner: CSObject<unknown>): void {
    this.disposeOnClose(inner.on('error', (e) => this.reportError(e)));
  }

  #invoke(
    op: 'entry' | 'exit',
    from: CSState,
    to: CSState,
    signal: AbortSignal | undefined,
    run: () => Promise<void>,
  ): Promise<void> {
    if (this.#closed) return Promise.reject(new CSMICError(`${op}() called on P${this.id} after close()`));
    if (this.#pending !== null) {
      return Promise.reject(
        new CSMICError(`${op}() called on P${this.id} while ${this.#pending}() is in flight; await it first`),
      );
    }
    if (this.#state !== from) {
      return Promise.reject(
        new CSMICError(
          `${op}() called on P${this.id} while ${this.#state}; ${op}() is only allowed when ${from}`,
        ),
      );
    }
    if (signal?.aborted)
      return Promise.reject(new AbortError(`${op}() aborted before it started`, { cause: signal.reason }));
    this.#pending = op;
    let body: Promise<void>;
    try {
      body = run();
    } catch (err) {
      this.#pending = null;
      return Promise.reject(err);
    }
    return body.then(
      () => {
        this.#pending = null;
        this.setState(to); // the flip at completion, for an algorithm that did not flip earlier
      },
      (err: unknown) => {
        this.#pending = null;
        throw err;
      },
    );
  }
}
