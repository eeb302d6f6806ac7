import { AbortError } from './errors.js';
import { Deferred, onAbort } from './deferred.js';

/** What a {@link PendingCall} rejects with: its `AbortError` messages. */
export interface PendingCallMessages {
  /** Message of the `AbortError` when the call's signal aborts it (the signal's reason is its `cause`). */
  readonly aborted: string;
  /** Message of the `AbortError` when the object is closed while the call waits. */
  readonly closed: string;
}

const noop = (): void => {};

/**
 * One "wait until …" of a protocol call — the papers' blocking wait of Entry()/Exit() — with the
 * call's abort signal and `close()` written once (global-CS paper, Def. 1: a CS call either
 * completes or, here, is withdrawn). A protocol object keeps one per wait it can be in:
 *
 * ```ts
 * protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
 *   this.#call.begin();                       // waiting from now on (handlers see `waiting`)
 *   send(REQUEST …);
 *   return this.#call.wait(signal, () => {    // the signal aborted while still waiting:
 *     send(RELEASE …);                        //   give back what the request holds
 *   });                                       //   then the call rejects with AbortError
 * }
 * #onGrant(): void {                          // a message handler (synchronous, atomic)
 *   if (!this.#call.waiting) return;
 *   this.#call.resolve(() => this.setState('InCS'));   // flip, then the call resolves
 * }
 * protected doClose(): void { this.#call.close(); }    // rejects the wait in flight, if any
 * ```
 *
 * Order of effects (every protocol of critsec relies on it): `resolve` ends the wait and
 * unregisters the abort listener, runs its `commit` (the state flip), then resolves; an abort
 * ends the wait, runs `withdraw`, then rejects; `close` ends the wait, unregisters the listener,
 * then rejects. The promise `wait` returns is the wait's own promise (no extra `then`), so a
 * caller's continuation runs at the same microtask as with a bare {@link Deferred}.
 */
export class PendingCall {
  readonly #messages: PendingCallMessages;
  #current: Deferred | null = null;
  /** The wait begun last (still readable after a `close()` that came during the request's sends). */
  #last: Deferred | null = null;
  #offAbort: () => void = noop;

  /** A call with no wait in progress. @param messages the `AbortError` messages for an abort and for a close. */
  constructor(messages: PendingCallMessages) {
    this.#messages = messages;
  }

  /** The standard messages: `"<name>: P<id> <op>() aborted"` / `"<name>: P<id> was closed while waiting in <op>()"`. */
  static messages(name: string, id: number, op: 'entry' | 'exit'): PendingCallMessages {
    return {
      aborted: `${name}: P${id} ${op}() aborted`,
      closed: `${name}: P${id} was closed while waiting in ${op}()`,
    };
  }

  /** True from {@link begin} until the wait resolves, aborts or is closed. */
  get waiting(): boolean {
    return this.#current !== null;
  }

  /** Starts a wait (call it before the request's messages go out, so handlers see `waiting`). */
  begin(): void {
    this.#current = new Deferred();
    this.#last = this.#current;
  }

  /**
   * Arms `signal` for the wait begun last and returns its promise (what `doEntry`/`doExit`
   * returns or awaits). If `signal` aborts while this wait is still the current one, the wait
   * ends, `withdraw(reason)` runs (give back what the request holds, send its cancel), and the
   * promise rejects with `AbortError` (`cause`: the signal's reason). A wait already closed (a
   * `close()` during the request's sends) returns its rejected promise.
   * @throws Error if no wait was begun.
   */
  wait(signal: AbortSignal | undefined, withdraw: (reason: unknown) => void = noop): Promise<void> {
    const d = this.#last;
    if (d === null) throw new Error('PendingCall.wait() without begin()');
    if (d.settled) return d.promise;
    this.#offAbort = onAbort(signal, (reason) => {
      if (d !== this.#current || d.settled) return;
      this.#current = null;
      withdraw(reason);
      d.reject(new AbortError(this.#messages.aborted, { cause: reason }));
    });
    return d.promise;
  }

  /**
   * Completes the wait: it ends, the abort listener goes, `commit` runs (flip the state there,
   * at the instant the paper does), then the promise resolves. No-op when not waiting.
   */
  resolve(commit: () => void = noop): void {
    const d = this.#current;
    if (d === null) return;
    this.#current = null;
    this.#offAbort();
    commit();
    d.resolve();
  }

  /** Rejects the wait in flight, if any, with the `closed` `AbortError` (from `doClose`). */
  close(): void {
    const d = this.#current;
    this.#current = null;
    this.#offAbort();
    d?.reject(new AbortError(this.#messages.closed));
  }
}
