import type { CSCallOptions, CSEvents, CSObject, EntryArgs } from './cs-object.js';
import { AbortError, CSMICError } from './errors.js';
import { Emitter } from './events.js';
import type { CSState, ProcessId } from './process.js';

/** Splits `entry`'s arguments into request and options, by whether the object takes a request. */
export function splitEntryArgs<Req>(
  takesRequest: boolean,
  args: readonly unknown[],
): { req: Req; opts: CSCallOptions | undefined } {
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
 * - `doEntry`/`doExit` flip the state with {@link CSObjectBase.setState} at the instant the
 *   paper flips it; if they resolve without flipping, the base flips it on completion;
 * - a rejected `doEntry`/`doExit` (abort, close) must leave the state unchanged.
 */
export abstract class CSObjectBase<Req = void> implements CSObject<Req> {
  readonly id: ProcessId;
  readonly takesRequest: boolean;
  declare readonly '~request'?: Req;
  readonly #events: Emitter<CSEvents>;
  #state: CSState;
  #pending: 'entry' | 'exit' | null = null;
  #closed = false;

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
    return this.#invoke('entry', 'OutCS', 'InCS', opts?.signal, () => this.doEntry(req, opts?.signal));
  }

  exit(opts?: CSCallOptions): Promise<void> {
    return this.#invoke('exit', 'InCS', 'OutCS', opts?.signal, () => this.doExit(opts?.signal));
  }

  on<E extends keyof CSEvents>(event: E, fn: (value: CSEvents[E]) => void): () => void {
    return this.#events.on(event, fn);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.doClose();
  }

  /** The protocol's entry: resolve once InCS (flip with `setState('InCS')` when the paper does). */
  protected abstract doEntry(req: Req, signal: AbortSignal | undefined): Promise<void>;
  /** The protocol's exit: resolve once OutCS (flip with `setState('OutCS')` when the paper does). */
  protected abstract doExit(signal: AbortSignal | undefined): Promise<void>;
  /** Stop handling messages; reject the call in flight (if any). */
  protected abstract doClose(): Promise<void> | void;

  /** Flips the state and fires `statechange` (no-op when unchanged). */
  protected setState(next: CSState): void {
    if (next === this.#state) return;
    this.#state = next;
    this.#events.emit('statechange', next);
  }

  /** Reports a non-fatal problem (a dropped message, …) through the `error` event. */
  protected reportError(err: Error): void {
    this.#events.emit('error', err);
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
        this.setState(to);
      },
      (err: unknown) => {
        this.#pending = null;
        throw err;
      },
    );
  }
}
