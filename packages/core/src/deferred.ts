import { AbortError } from './errors.js';

/**
 * A promise with its resolve/reject exposed: how the papers' "wait until …" becomes code. A
 * message handler (synchronous, atomic) resolves it; the waiting method awaits it.
 */
export class Deferred<T = void> {
  /** The promise the waiting method awaits. */
  readonly promise: Promise<T>;
  /** Fulfils `promise` with `value`; does nothing once settled. */
  resolve!: (value: T) => void;
  /** Rejects `promise` with `reason`; does nothing once settled. */
  reject!: (reason: unknown) => void;
  #settled = false;

  /** A pending deferred. */
  constructor() {
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolve = (v) => {
        if (this.#settled) return;
        this.#settled = true;
        resolve(v);
      };
      this.reject = (e) => {
        if (this.#settled) return;
        this.#settled = true;
        reject(e);
      };
    });
  }

  /** True once resolved or rejected. */
  get settled(): boolean {
    return this.#settled;
  }
}

/**
 * Calls `onAbort` once if `signal` aborts; returns a function that unregisters it. The handler
 * runs synchronously from the abort, like a message handler.
 */
export function onAbort(signal: AbortSignal | undefined, onAbortFn: (reason: unknown) => void): () => void {
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    onAbortFn(signal.reason);
    return () => {};
  }
  const listener = () => onAbortFn(signal.reason);
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

/** An {@link AbortError} for a signal's reason. */
export function abortErrorFor(what: string, reason: unknown): AbortError {
  return new AbortError(`${what} was aborted`, { cause: reason });
}
