import type { JsonValue } from '@critsec/core';

export type { JsonValue };

/** One committed record: its value and its version. */
export interface StoredRecord {
  /** The value last committed under the key. */
  readonly value: JsonValue;
  /** The commit sequence number (see {@link ProtocolStore.sequence}) of the transaction that wrote it; ≥ 1. */
  readonly version: number;
}

/**
 * Who a store belongs to, written once when it is created and checked on every open, so that
 * a member never starts from another member's, another cluster's or an empty (lost) state.
 */
export interface StoreIdentity {
  /** The cluster's name (any non-empty string the cluster configuration fixes). */
  readonly cluster: string;
  /** The member id, 0..n−1. */
  readonly member: number;
  /** A random id drawn when the store was created (hex); a recreated store has a new one. */
  readonly storeId: string;
  /** 1 when created, bumped by one (and committed, synced) on every later open. */
  readonly incarnation: number;
}

/** What `load()` returns: the state as of the last committed transaction. */
export interface StoreSnapshot {
  /** The store's identity, the incarnation already bumped for this open. */
  readonly identity: StoreIdentity;
  /** The sequence number of the last committed transaction (0: none yet). */
  readonly sequence: number;
  /** Every committed record, by key (deleted keys are absent). */
  readonly records: ReadonlyMap<string, StoredRecord>;
}

/** How a member opens its store. */
export interface OpenOptions {
  /** The cluster's name; a store of another cluster is refused (`foreign`). */
  readonly cluster: string;
  /** This member's id; a store of another member is refused (`foreign`). */
  readonly member: number;
  /**
   * `'create'`: the member's first start — the store must be empty (else `exists`).
   * `'recover'`: a restart — the store must hold this member's identity (else `missing` or
   * `foreign`). There is deliberately no "open or create": a lost store must not look like a
   * first start, since the member would forget the grants it gave.
   */
  readonly mode: 'create' | 'recover';
  /** Largest key, in UTF-8 bytes (default 256, at most 511). */
  readonly maxKeyBytes?: number;
  /** Largest value, in bytes of its JSON text (default 65 536, at most 16 MiB). */
  readonly maxValueBytes?: number;
}

/** What a resolved `commit()` tells. */
export interface CommitReceipt {
  /** The sequence number of the transaction that made the records durable (unchanged if none were staged). */
  readonly sequence: number;
  /** How many records that transaction wrote (every caller of one turn shares it). */
  readonly records: number;
}

/**
 * A member's durable protocol state (issue 27 §1): named records, written as a **transactional
 * outbox** — a handler `stage`s every record its step changes, then `commit()`s, and sends the
 * messages that depend on them only once the commit has resolved.
 *
 * Guarantees:
 * - **Group commit.** Every record staged during one event-loop turn (real store) or one
 *   microtask drain (memory store) goes into **one** transaction with one sync; every
 *   `commit()` of that turn resolves with the same receipt once it is durable.
 * - **Atomic.** After a crash, `load()` sees exactly the transactions that committed, in order —
 *   never part of one.
 * - **Durable before resolve.** A resolved `commit()` survives a crash (real store: LMDB's synced
 *   commit, i.e. `fdatasync`/`fsync` of the data file returned).
 * - Staging a key twice before the commit keeps the last value.
 */
export interface ProtocolStore {
  /** This store's identity, incarnation bumped by this open. */
  readonly identity: StoreIdentity;
  /** The sequence number of the last committed transaction (0: none). */
  readonly sequence: number;
  /**
   * Stage `value` under `key` (`undefined` deletes the key) for the next commit; synchronous,
   * writes nothing yet. Throws `StoreError` `oversized` for a key or value beyond the bounds
   * (before anything is staged), `closed` after `close()`/a crash; `ConfigurationError` for an
   * empty key or a value that is not JSON (a non-finite number, a cycle).
   */
  stage(key: string, value: JsonValue | undefined): void;
  /**
   * Make every record staged so far durable, in one synced transaction shared by every caller of
   * this turn. Resolves when it is durable; rejects with `StoreError` (`io`, `closed`) otherwise —
   * then nothing that depends on those records may be sent.
   */
  commit(): Promise<CommitReceipt>;
  /** The committed state (records staged and not yet committed are not in it). */
  load(): StoreSnapshot;
  /** Wait for any commit in flight, then close; later calls throw `StoreError` `closed`. */
  close(): Promise<void>;
}
