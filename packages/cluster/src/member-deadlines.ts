/*
 * The deadlines of a cluster member (member-runtime.ts): every wait of the member — its peers
 * connecting, each `entry()` and `exit()`, a peer that went down coming back, the end barriers,
 * the final flush and close — ends, at the latest after its deadline, with a one-line
 * `TransportError` naming the wait and the configuration key that sets it, so that a member
 * whose cluster cannot go on ends (and its supervisor can restart it) instead of hanging.
 */
import { type ProcessId, TransportError } from '@critsec/core';
import type { TcpTransport } from '@critsec/transport-tcp';
import type { ClusterConfig } from './config-cluster.js';

/** The deadlines of a member's waits, in ms (the configuration's `…TimeoutMs`, or their defaults). */
export interface NodeDeadlines {
  /** `readyTimeoutMs`: every peer connected (default 30 000). */
  readonly ready: number;
  /** `callTimeoutMs`: one `entry()` or `exit()` (default 60 000). */
  readonly call: number;
  /** `peerDownTimeoutMs`: a connected peer unreachable until it is back (default 60 000). */
  readonly peerDown: number;
  /** `finishTimeoutMs`: from this member's `finish()` until every member is done (default 300 000). */
  readonly finish: number;
  /** `shutdownTimeoutMs`: the final flush and close (default 10 000). */
  readonly shutdown: number;
}

/** The deadlines a configuration sets (see {@link NodeDeadlines} for the defaults). */
export function nodeDeadlines(config: ClusterConfig): NodeDeadlines {
  return {
    ready: config.readyTimeoutMs ?? 30_000,
    call: config.callTimeoutMs ?? 60_000,
    peerDown: config.peerDownTimeoutMs ?? 60_000,
    finish: config.finishTimeoutMs ?? 300_000,
    shutdown: config.shutdownTimeoutMs ?? 10_000,
  };
}

/**
 * `p`, or a `TransportError` `"<what> did not complete within <ms> ms (<key>)"` once `ms` have
 * passed (the timer is cleared when `p` settles first).
 */
export async function withDeadline<T>(p: Promise<T>, ms: number, what: string, key: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new TransportError(`${what} did not complete within ${ms} ms (${key})`)),
      ms,
    );
  });
  try {
    return await Promise.race([p, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the CS call `call(signal)` with a deadline of `ms`: the signal passed on is the caller's
 * (when given) combined with the deadline's, so an expired call is withdrawn — the protocol stays
 * consistent — and the result rejects with a `TransportError` naming `what` and `callTimeoutMs`
 * (while the caller's own abort still rejects with its `AbortError`). A `signal` that is no
 * `AbortSignal` is handed over as it is, for the CS object to reject (`ConfigurationError`).
 */
export async function callWithDeadline<T>(
  ms: number,
  signal: AbortSignal | undefined,
  what: string,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (signal !== undefined && typeof signal?.addEventListener !== 'function') {
    return call(signal); // not an AbortSignal: the CS object rejects it (ConfigurationError)
  }
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  try {
    // on expiry the call is withdrawn (aborted with the deadline's error) as the result rejects
    return await withinDeadline(call(controller.signal), ms, what, 'callTimeoutMs', (err) =>
      controller.abort(err),
    );
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}

/**
 * `promise`, or a `TransportError` naming `what` and the configuration key `key` once `ms` have
 * passed without it settling (`onExpired` is then called with that error, e.g. to withdraw the
 * call behind `promise`).
 */
export async function withinDeadline<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
  key: string,
  onExpired?: (err: TransportError) => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new TransportError(`${what} did not complete within ${ms} ms (${key})`);
      reject(err);
      onExpired?.(err);
    }, ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** A peer went down or came back (what `runClusterNode` reports as progress). */
export interface PeerChange {
  readonly event: 'peer-down' | 'peer-up';
  readonly peer: ProcessId;
  /** Why the connection went down, or how it came back (`resumed`, `new`, `reset`). */
  readonly detail: string;
}

/**
 * Watches a member's peers once it is ready: a peer that goes down and stays unreachable for
 * `peerDown` ms, or a finish barrier that takes longer than `finish` ms after this member's
 * `finishing()`, fails the member — `failed` rejects with a `TransportError` saying which.
 * `race(p)` is `p` or that failure, whichever comes first. `stop()` clears every timer.
 */
export class NodeWatch {
  /** Rejects with the first failure; never resolves. */
  readonly failed: Promise<never>;
  readonly #down = new Map<ProcessId, NodeJS.Timeout>();
  readonly #off: (() => void)[] = [];
  #fail: (err: Error) => void = () => {};
  #finish: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(
    private readonly transport: TcpTransport,
    private readonly deadlines: NodeDeadlines,
    onChange: (change: PeerChange) => void,
  ) {
    this.failed = new Promise<never>((_, reject) => {
      this.#fail = reject;
    });
    this.failed.catch(() => {}); // handled by whoever races it; never an unhandled rejection
    const self = transport.self;
    this.#off.push(
      transport.on('disconnected', ({ peer, reason }) => {
        if (this.#stopped || this.#down.has(peer)) return;
        onChange({ event: 'peer-down', peer, detail: reason });
        const ms = deadlines.peerDown;
        const timer = setTimeout(
          () =>
            this.#fail(
              new TransportError(
                `P${self}: P${peer} has been unreachable for ${ms} ms (peerDownTimeoutMs); last: ${reason}`,
              ),
            ),
          ms,
        );
        this.#down.set(peer, timer);
      }),
      transport.on('connected', ({ peer, kind }) => {
        const timer = this.#down.get(peer);
        if (this.#stopped || timer === undefined) return;
        clearTimeout(timer);
        this.#down.delete(peer);
        onChange({ event: 'peer-up', peer, detail: kind });
      }),
    );
  }

  /** Starts the finish deadline (idempotent): this member finished its rounds. */
  finishing(): void {
    if (this.#finish !== undefined || this.#stopped) return;
    const ms = this.deadlines.finish;
    this.#finish = setTimeout(
      () =>
        this.#fail(
          new TransportError(
            `P${this.transport.self}: the other members did not finish within ${ms} ms of this one (finishTimeoutMs)`,
          ),
        ),
      ms,
    );
  }

  /** Fails the member when `failure` rejects (a durable member's failed commit). */
  failWith(failure: Promise<never>): void {
    failure.catch((err: unknown) => this.#fail(err instanceof Error ? err : new Error(String(err))));
  }

  /** `p`, or the watch's failure, whichever comes first. */
  race<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.failed]);
  }

  /** Stops watching: clears every timer and unsubscribes (peers leaving at the end are no failure). */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#down.values()) clearTimeout(timer);
    this.#down.clear();
    clearTimeout(this.#finish);
    for (const off of this.#off) off();
  }
}
