/**
 * One process's suspicions (issue 28 §4), as its root endpoint exposes them
 * (`RootEndpoint.suspicions`, the `Suspicions` of `@critsec/core`). Two sources mark a peer:
 *
 * - the link's failure detector (`Link.setSuspect`): the TCP transport suspects a peer whose
 *   connection has been down or silent past `suspectAfterMs`, the simulator one crash-stopped or
 *   cut off by a partition past its timeout; the link reports `false` when the peer is back;
 * - the graceful leave: a peer that announced LEAVING, or closed for good, is suspected at once —
 *   a member closing on purpose is not waited for until a timeout.
 *
 * A peer is suspected while either marks it; the link's "back" (`false`: a live session again,
 * e.g. a restarted member) clears both.
 */
import type { ProcessId, Suspicions } from '@critsec/core';

const NONE: ReadonlySet<ProcessId> = new Set();

/** The suspicions of one process, fed by its link and its leave; see the module comment. */
export class SuspicionBoard implements Suspicions {
  readonly #self: ProcessId;
  readonly #detected = new Set<ProcessId>();
  readonly #left = new Set<ProcessId>();
  readonly #listeners: (() => void)[] = [];
  readonly #onError: ((err: unknown) => void) | undefined;
  #current: ReadonlySet<ProcessId> = NONE;

  /** @param onError where a listener's exception goes (else the first is rethrown after all ran). */
  constructor(self: ProcessId, onError?: (err: unknown) => void) {
    this.#self = self;
    this.#onError = onError;
  }

  suspected(): ReadonlySet<ProcessId> {
    return this.#current;
  }

  onChange(fn: () => void): () => void {
    this.#listeners.push(fn);
    return () => {
      const i = this.#listeners.indexOf(fn);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  /** The link's failure detector: `peer` is suspected (`true`), or back with a live session (`false`). */
  detected(peer: ProcessId, suspected: boolean): void {
    if (peer === this.#self) return;
    if (suspected) this.#detected.add(peer);
    else {
      this.#detected.delete(peer);
      this.#left.delete(peer);
    }
    this.#update();
  }

  /** `peer` announced leaving, or closed for good: suspected at once. */
  left(peer: ProcessId): void {
    if (peer === this.#self) return;
    this.#left.add(peer);
    this.#update();
  }

  #update(): void {
    const next = new Set<ProcessId>([...this.#detected, ...this.#left]);
    if (next.size === this.#current.size && [...next].every((p) => this.#current.has(p))) return;
    this.#current = next;
    const failures: unknown[] = [];
    for (const fn of [...this.#listeners]) {
      try {
        fn();
      } catch (err) {
        failures.push(err);
      }
    }
    if (this.#onError !== undefined) for (const err of failures) this.#onError(err);
    else if (failures.length > 0) throw failures[0];
  }
}
