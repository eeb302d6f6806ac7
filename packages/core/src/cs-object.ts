import type { JsonValue } from './json.js';
import type { Endpoint } from './message.js';
import type { CSState, ProcessId } from './process.js';
import type { Suspicions } from './suspicions.js';

/** Options of one `entry`/`exit` call. */
export interface CSCallOptions {
  /**
   * Withdraws the call. An aborted call leaves the protocol consistent (partial permissions are
   * given back) and rejects with `AbortError`; an algorithm that cannot abort at some point says
   * so in its docs and completes instead.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The parameters of `entry`: `(opts?)` when the object takes no request (`Req = void`),
 * `(req, opts?)` otherwise — `h` units for h-out-of-k, a group for group mutual exclusion.
 */
export type EntryArgs<Req> = [Req] extends [void] ? [opts?: CSCallOptions] : [req: Req, opts?: CSCallOptions];

/** Events every CS object emits. */
export interface CSEvents {
  /** The state flipped (at the instant the algorithm flips it). */
  statechange: CSState;
  /** A problem that did not stop the object: a dropped malformed message, a throwing listener. */
  error: Error;
}

/**
 * A CS object (global-CS paper, Def. 1): one process's handle on a critical-section protocol.
 *
 * CSMIC: `entry` only when OutCS, `exit` only when InCS, never two calls in flight; violations
 * reject with `CSMICError` and send nothing.
 */
export interface CSObject<Req = void> {
  /** This process's id. */
  readonly id: ProcessId;
  /** Current state; flips at the instant the algorithm flips it, before the call's promise settles. */
  readonly state: CSState;
  /** The call in flight, if any. */
  readonly pending: 'entry' | 'exit' | null;
  /** True when `entry` takes a request argument (`Req` is not `void`). */
  readonly takesRequest: boolean;
  /**
   * Type-only: carries `Req` so helpers such as `withCS` can infer it. Never set at run time.
   * @internal
   */
  readonly '~request'?: Req;
  /** OutCS → InCS. Resolves when the whole entry is done. */
  entry(...args: EntryArgs<Req>): Promise<void>;
  /** InCS → OutCS. Resolves when the whole exit is done. */
  exit(opts?: CSCallOptions): Promise<void>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends keyof CSEvents>(event: E, fn: (value: CSEvents[E]) => void): () => void;
  /**
   * Leaves the protocol: stops handling messages and rejects a call in flight. Idempotent.
   * Until quorum reselection exists, the others may still need this process (an arbiter of
   * their quorums; the papers assume no process leaves): closing it while they run blocks them.
   * Leave gracefully first — the TCP transport's `close()` keeps this object serving until every
   * peer has closed too (`RootEndpoint.leave` of `@critsec/transport`) — then close the object.
   */
  close(): Promise<void>;
}

/**
 * What a CS factory receives for one process (DESIGN.md 3.1): the settings stay in the factory's
 * closure, the per-process parts are injected here.
 */
export interface ProcessContext {
  /** This process. */
  readonly id: ProcessId;
  /** Number of processes. */
  readonly n: number;
  /** This process's endpoint; compositions hand inner objects a `channel` of it. */
  readonly endpoint: Endpoint;
  /** The whole initial configuration, known to every process (must be safe for the problem). */
  readonly initial: readonly CSState[];
  /**
   * Set when this process restarts after a crash: the protocol state its last committed step
   * persisted (`durableState()` of the object before the crash; see `DurableCSObject`). The factory
   * builds the object from it instead of from `initial[id]`; an algorithm without crash recovery
   * throws `ConfigurationError` here. Absent on a first start.
   */
  readonly recovered?: JsonValue | undefined;
  /**
   * The failure detector of this process's transport (issue 28 §4): whom it suspects now, and
   * when that changes — a hint an algorithm may use to avoid waiting for a suspected process
   * (quorum reselection), never for safety. Absent: nobody is ever suspected.
   */
  readonly suspicions?: Suspicions | undefined;
}

/**
 * An algorithm with its settings: makes the CS object of one process. Validation of settings
 * against the context (n, initial configuration) throws `ConfigurationError` /
 * `CoterieError` here, before any message is sent.
 */
export type CSFactory<Req = void> = (ctx: ProcessContext) => CSObject<Req>;

/**
 * True when `x` looks like a {@link CSObject} (has `entry`, `exit` and `on`): how the overloaded
 * transforms (`complement`, `compose`) tell an object from a factory or a spec.
 */
export function isCSObject(x: unknown): x is CSObject<unknown> {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as CSObject<unknown>).entry === 'function' &&
    typeof (x as CSObject<unknown>).exit === 'function' &&
    typeof (x as CSObject<unknown>).on === 'function'
  );
}

/** The request type of a CS object or factory. */
export type RequestOf<T> = T extends CSObject<infer R> ? R : T extends CSFactory<infer R> ? R : never;
