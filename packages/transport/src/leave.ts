/*
 * The graceful leave of one process (issue 26): it announces LEAVING to every peer on the
 * control channel and keeps serving — every channel still delivers and sends — until every peer
 * has announced leaving too or is gone, or the linger deadline passes. Until quorum reselection
 * exists, a process that closes is still an arbiter in the others' quorums: leaving at once would
 * block them for good.
 */
import {
  LeaveTimeoutError,
  type Message,
  PeerDepartedError,
  type ProcessId,
  TransportError,
} from '@critsec/core';
import type { Link } from './link.js';

/**
 * The control channel's path. A user's channel path never starts with `/` (channel names have
 * none), so it cannot collide with one.
 */
export const CONTROL_PATH = '/control';

/** The announcement a leaving process sends every peer on {@link CONTROL_PATH}. */
const LEAVING: Message = Object.freeze({ type: 'LEAVING' });

/** The longest timer Node keeps (2³¹ − 1 ms); a longer one would fire at once. */
const MAX_LINGER_MS = 2 ** 31 - 1;

/** Options of `RootEndpoint.leave`. */
export interface LeaveOptions {
  /**
   * How long to keep serving the peers, at most, in ms (default 10 000; in [0, 2³¹ − 1]): past
   * it, `leave` rejects with `LeaveTimeoutError` naming the peers that have not left.
   */
  readonly lingerMs?: number;
}

/** One process's leave: who has announced leaving, who is gone, and its own leave in progress. */
export class Leave {
  readonly #left = new Set<ProcessId>();
  readonly #gone = new Set<ProcessId>();
  readonly #departures = new AbortController();
  #leaving: Promise<void> | undefined;
  #check: () => void = () => {};

  constructor(readonly link: Link) {}

  /** Aborted (reason: `PeerDepartedError`) once a peer went before this process announced leaving. */
  get signal(): AbortSignal {
    return this.#departures.signal;
  }

  /** A message on the control channel: `LEAVING` from `from`; anything else is ignored. */
  receive(from: ProcessId, msg: Message): boolean {
    if (msg.type !== 'LEAVING' || from === this.link.self || !this.link.peers.includes(from)) return false;
    this.#left.add(from);
    this.#check();
    return true;
  }

  /** `peer` closed for good (its transport said so): nobody waits for it any longer. */
  gone(peer: ProcessId): void {
    if (peer === this.link.self || this.#gone.has(peer)) return;
    this.#gone.add(peer);
    if (this.#leaving === undefined && !this.#departures.signal.aborted) {
      this.#departures.abort(
        new PeerDepartedError(
          `P${peer} left for good while P${this.link.self} was still running; a call that needs it (as an arbiter of its quorum) cannot complete`,
          { peer },
        ),
      );
    }
    this.#check();
  }

  /** The peers that have neither announced leaving nor gone, ascending. */
  waitingFor(): ProcessId[] {
    return this.link.peers.filter((p) => p !== this.link.self && !this.#left.has(p) && !this.#gone.has(p));
  }

  /** Announces leaving (once) and resolves when nobody is waited for; see `RootEndpoint.leave`. */
  leave(options: LeaveOptions = {}): Promise<void> {
    if (this.#leaving !== undefined) return this.#leaving;
    const lingerMs = options.lingerMs ?? 10_000;
    if (!(typeof lingerMs === 'number' && lingerMs >= 0 && lingerMs <= MAX_LINGER_MS)) {
      return Promise.reject(
        new TransportError(
          `leave: lingerMs must be a number of ms in [0, ${MAX_LINGER_MS}], got ${String(lingerMs)}`,
        ),
      );
    }
    this.#leaving = this.#start(lingerMs);
    return this.#leaving;
  }

  #start(lingerMs: number): Promise<void> {
    const self = this.link.self;
    for (const p of this.link.peers) {
      if (p === self || this.#gone.has(p)) continue;
      try {
        this.link.send(p, CONTROL_PATH, LEAVING);
      } catch {
        // refused (its unacknowledged bound, say): that peer still announces its own leave
      }
    }
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#check = () => {};
        const waiting = this.waitingFor();
        reject(
          new LeaveTimeoutError(
            `P${self} left after lingering ${lingerMs} ms, but P${waiting.join(', P')} had not announced leaving: ` +
              'they may still need it (an arbiter of their quorums) and now wait for it in vain; ' +
              'close them too, or leave with a longer lingerMs',
            { waitingFor: waiting, lingerMs },
          ),
        );
      }, lingerMs);
      this.#check = () => {
        if (this.waitingFor().length > 0) return;
        this.#check = () => {};
        clearTimeout(timer);
        resolve();
      };
      this.#check();
    });
  }
}
