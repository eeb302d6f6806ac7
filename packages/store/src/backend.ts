/**
 * What a store needs from the medium under it: read every durable entry when opening, write a
 * batch of entries as ONE atomic, synced transaction, close. Entries are strings (JSON text)
 * under string keys; `undefined` deletes.
 */
export interface StoreBackend {
  /** Every durable entry, as of the last transaction that committed. */
  entries(): Iterable<[string, string]>;
  /**
   * Write `writes` atomically and durably: resolves once all of them survive a crash; after a
   * crash a reader sees all of them or none.
   */
  write(writes: ReadonlyArray<readonly [string, string | undefined]>): Promise<void>;
  /** Release the medium (after the last write has settled). */
  close(): Promise<void>;
}

/** The store's own keys: its identity and the last committed sequence number. */
export const IDENTITY_KEY = 'm:identity';
/** The key of the last committed transaction's sequence number. */
export const SEQUENCE_KEY = 'm:sequence';
/** Prefix of every record key as stored (keeps records apart from the store's own keys). */
export const RECORD_PREFIX = 'r:';
