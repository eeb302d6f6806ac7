/**
 * A minimal typed event emitter. Listeners run synchronously in registration order; a listener
 * that throws does not stop the others nor the protocol: its error goes to `onListenerError`.
 */
export class Emitter<Events extends { [K in keyof Events]: unknown }> {
  readonly #listeners = new Map<keyof Events, Set<(value: never) => void>>();
  readonly #onListenerError: (err: unknown) => void;

  /** An emitter with no listeners; a listener's error goes to `onListenerError` (default: rethrown on a microtask). */
  constructor(onListenerError?: (err: unknown) => void) {
    this.#onListenerError =
      onListenerError ??
      ((err) => {
        queueMicrotask(() => {
          throw err;
        });
      });
  }

  /** Registers `fn` for `event`; returns a function that removes it. */
  on<E extends keyof Events>(event: E, fn: (value: Events[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(fn as (value: never) => void);
    return () => {
      set.delete(fn as (value: never) => void);
    };
  }

  /** True if anybody listens to `event`. */
  has(event: keyof Events): boolean {
    return (this.#listeners.get(event)?.size ?? 0) > 0;
  }

  /** Calls every listener of `event` with `value`. */
  emit<E extends keyof Events>(event: E, value: Events[E]): void {
    const set = this.#listeners.get(event);
    if (set === undefined || set.size === 0) return;
    for (const fn of [...set]) {
      try {
        (fn as (value: Events[E]) => void)(value);
      } catch (err) {
        this.#onListenerError(err);
      }
    }
  }

  /** Removes every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
