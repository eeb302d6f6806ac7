/**
 * One client's requests for one name, one at a time: the service lets a session hold or wait for
 * a name at most once (`LOCK_ALREADY_REQUESTED`), so the client queues its own requests for a name
 * (first come, first served) and sends each when the one before it has settled — as
 * `@critsec/locks` queues a member's requests for a name.
 */

/** The local FIFO queues of one client, by name. */
export class NameQueues {
  readonly #tails = new Map<string, Promise<void>>();

  /** True while a request of this client for `name` waits or holds (an `ifAvailable` request gets `null`). */
  busy(name: string): boolean {
    return this.#tails.has(name);
  }

  /**
   * Waits until every earlier request of this client for `name` has settled; resolves with the
   * `leave()` to call once this one settles (idempotent).
   * @throws `signal`'s reason when it aborts first (the request then leaves the queue).
   */
  async enter(name: string, signal: AbortSignal | undefined): Promise<() => void> {
    const before = this.#tails.get(name) ?? Promise.resolve();
    let done = () => {};
    const mine = new Promise<void>((r) => {
      done = r;
    });
    const tail = before.then(() => mine);
    this.#tails.set(name, tail);
    const leave = () => {
      done();
      if (this.#tails.get(name) === tail) this.#tails.delete(name);
    };
    try {
      await untilAborted(before, signal);
    } catch (err) {
      leave();
      throw err;
    }
    return leave;
  }
}

/** `promise`, or the reason of `signal` as soon as it aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
