/**
 * Error classes shared by every critsec package. Each carries a stable `code` string so callers
 * can branch without `instanceof` across package copies, and a message that says what was wrong
 * and what was expected.
 */

/** Base class of every error critsec throws on purpose. */
export class CritsecError extends Error {
  /** A stable, machine-readable code (e.g. `'CSMIC'`, `'CONFIGURATION'`). */
  readonly code: string;
  /** An error with the stable `code`, the `message` and, optionally, the underlying `cause`. */
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/**
 * A CSMIC violation (global-CS paper, Def. 1): `entry` called while InCS, `exit` called while
 * OutCS, a second call while one is in flight, or any call after `close()`. A programming error
 * of the caller; the CS object rejects the call and sends nothing.
 */
export class CSMICError extends CritsecError {
  /** A CSMIC violation; `message` names the call and the state. */
  constructor(message: string) {
    super('CSMIC', message);
  }
}

/**
 * A configuration that cannot be run: a bad `n`, `l ≥ k`, an unsafe initial configuration, a
 * graph that is not symmetric, an option out of range. Thrown before any message is sent.
 */
export class ConfigurationError extends CritsecError {
  /** A configuration error; `message` names the offending setting and what was expected. */
  constructor(message: string, options?: { cause?: unknown }) {
    super('CONFIGURATION', message, options);
  }
}

/** A quorum system that breaks its defining property (empty quorum, non-intersecting pair, …). */
export class CoterieError extends CritsecError {
  /** A quorum-system error; `message` names the offending quorums. */
  constructor(message: string, options?: { cause?: unknown }) {
    super('COTERIE', message, options);
  }
}

/**
 * A message that a protocol cannot accept (fails its schema, names an unknown peer, arrives on
 * an unknown channel). Never thrown into a message handler: the message is dropped, counted,
 * and this error is reported through an `error` event.
 */
export class ProtocolError extends CritsecError {
  /** The sender of the offending message, when known. */
  readonly from: number | undefined;
  /** A rejected message; `options.from` is its sender, when known. */
  constructor(message: string, options?: { from?: number; cause?: unknown }) {
    super('PROTOCOL', message, options);
    this.from = options?.from;
  }
}

/** A transport failure: a closed endpoint, an unknown peer, an oversized frame, a refused connection. */
export class TransportError extends CritsecError {
  /** A transport failure; `message` says what failed. */
  constructor(message: string, options?: { cause?: unknown }) {
    super('TRANSPORT', message, options);
  }
}

/**
 * A message the transport had accepted for a channel nobody has listened on yet could not be
 * held: `limit` messages were already held for unopened channels (`maxHeldMessages` of
 * `createEndpoint`). The message is lost. Open every channel (build every CS object) before the
 * peers start sending, or raise the limit.
 */
export class HeldMessagesOverflowError extends TransportError {
  /** The channel path of the message that could not be held. */
  readonly channel: string;
  /** The bound that was reached (messages held in all). */
  readonly limit: number;
  /** The overflow; `message` names the channel, the sender and the way out. */
  constructor(message: string, options: { channel: string; limit: number }) {
    super(message);
    this.channel = options.channel;
    this.limit = options.limit;
  }
}

/**
 * A graceful leave (`RootEndpoint.leave`, the TCP transport's `close()`) whose linger deadline
 * passed before every peer had announced leaving too: `waitingFor` may still need this process
 * (e.g. as an arbiter in their quorums) and can now wait for it forever, or fail with
 * {@link PeerDepartedError}. The way out: close those peers too, or give a longer `lingerMs`.
 */
export class LeaveTimeoutError extends TransportError {
  /** The peers that had neither announced leaving nor gone when the deadline passed, ascending. */
  readonly waitingFor: readonly number[];
  /** The leave's linger deadline, ms. */
  readonly lingerMs: number;
  /** The timeout; `message` names the peers and the way out. */
  constructor(message: string, options: { waitingFor: readonly number[]; lingerMs: number }) {
    super(message);
    this.waitingFor = options.waitingFor;
    this.lingerMs = options.lingerMs;
  }
}

/**
 * A peer left for good (its transport closed) while this process may still need it: a call
 * that waits for it would wait forever, so it is withdrawn with this error as the abort reason
 * (the call rejects with `AbortError` whose `cause` is this error).
 */
export class PeerDepartedError extends TransportError {
  /** The departed peer. */
  readonly peer: number;
  /** The departure; `message` names the peer. */
  constructor(message: string, options: { peer: number }) {
    super(message);
    this.peer = options.peer;
  }
}

/**
 * A time-bounded grant whose deadline has passed (issue 28): thrown by `Tenure.check()` and the
 * reason of `Tenure.signal`. The arbiters may have reclaimed the grant and another process may
 * hold it: effects must stop; a fencing-aware resource would refuse this holder's token anyway.
 */
export class TenureExpiredError extends CritsecError {
  /** The fencing token of the expired tenure. */
  readonly token: number;
  /** How far past the deadline, in the clock's unit (ms, or simulator time units), ≥ 0. */
  readonly overdue: number;
  /** The expiry; `message` names the process, the token and how far past the deadline. */
  constructor(message: string, options: { token: number; overdue: number }) {
    super('TENURE_EXPIRED', message);
    this.token = options.token;
    this.overdue = options.overdue;
  }
}

/**
 * An operation withdrawn through its `AbortSignal`. Shaped like Node's own `AbortError`
 * (`name === 'AbortError'`, `code === 'ABORT_ERR'`, the signal's reason as `cause`), so code that
 * already tests `err.name === 'AbortError'` for `fetch` or `timers/promises` handles it too.
 */
export class AbortError extends Error {
  /** `'ABORT_ERR'`, as Node's own abort errors. */
  readonly code = 'ABORT_ERR';
  /** An abort error; `options.cause` is the signal's reason. */
  constructor(message = 'The operation was aborted', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AbortError';
  }
}

/** True for any abort error: ours, Node's, or a `DOMException` named `AbortError`. */
export function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}

/** Throws an {@link AbortError} (with the signal's reason as `cause`) if `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
}
