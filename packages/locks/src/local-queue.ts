/**
 * The requests of one member for one name, in arrival order. A CS object takes one call at a
 * time (CSMIC), so a member's requests for a name run their protocol entry one after the other:
 * the first in line owns the name's instance until it releases; the others wait here, in order,
 * each abortable.
 */
import { AbortError } from '@critsec/core';

interface Waiter {
  readonly grant: () => void;
  readonly fail: (err: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

/** One name's local line: `take()` resolves when the caller is first; `give()` passes the turn on. */
export class LocalQueue {
  #busy = false;
  readonly #waiters: Waiter[] = [];

  /** True when a request of this member holds the turn or waits for it. */
  get busy(): boolean {
    return this.#busy || this.#waiters.length > 0;
  }

  /** Requests of this member waiting behind the one that has the turn. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** Resolves once the caller has the turn; rejects with `AbortError` if `signal` aborts first. */
  take(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
    if (!this.#busy) {
      this.#busy = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', w.onAbort);
          resolve();
        },
        fail: reject,
        signal,
        onAbort: () => {
          const i = this.#waiters.indexOf(w);
          if (i >= 0) this.#waiters.splice(i, 1);
          reject(new AbortError(undefined, { cause: signal?.reason }));
        },
      };
      signal?.addEventListener('abort', w.onAbort, { once: true });
      this.#waiters.push(w);
    });
  }

  /** Gives the turn to the next waiter, if any. */
  give(): void {
    const next = this.#waiters.shift();
    if (next === undefined) this.#busy = false;
    else next.grant();
  }

  /** Rejects every waiter with `err` (the manager closes). */
  failAll(err: unknown): void {
    for (const w of this.#waiters.splice(0)) {
      w.signal?.removeEventListener('abort', w.onAbort);
      w.fail(err);
    }
  }
}
