/**
 * `@critsec/store` — durable protocol state (issue 27 §1): a per-member {@link ProtocolStore}
 * of named records, group-committed (one synced transaction per event-loop turn) before the
 * messages that depend on them are sent; {@link lmdbStore} on disk, {@link memoryStore} for the
 * simulator.
 *
 * @packageDocumentation
 */
export { StoreError, type StoreErrorReason } from './errors.js';
export { lmdbStore } from './lmdb-store.js';
export { MemoryDisk, memoryDisk } from './memory-disk.js';
export { type MemoryStore, memoryStore } from './memory-store.js';
export type {
  CommitReceipt,
  JsonValue,
  OpenOptions,
  ProtocolStore,
  StoreIdentity,
  StoreSnapshot,
  StoredRecord,
} from './types.js';
