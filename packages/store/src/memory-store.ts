import { StoreError } from './errors.js';
import { GroupCommitStore } from './group-commit.js';
import { limitsOf } from './limits.js';
import type { MemoryDisk } from './memory-disk.js';
import { openOver } from './open.js';
import type { OpenOptions, ProtocolStore } from './types.js';

/** The simulator's store: a {@link ProtocolStore} on a {@link MemoryDisk}, with a simulated crash. */
export interface MemoryStore extends ProtocolStore {
  /**
   * A simulated crash of the member: every record staged and every commit not yet written is
   * lost (their `commit()` promises reject with `StoreError` `closed`), the store is dead (later
   * calls throw), the disk keeps exactly the committed transactions. With `tornWrites = t`, the
   * pending transaction is first written part-way — its first `t` entries, no commit mark — to
   * show that a torn transaction is never visible (a seeded choice of `t` in tests).
   */
  crash(options?: { readonly tornWrites?: number }): void;
}

class MemoryProtocolStore extends GroupCommitStore implements MemoryStore {
  disk: MemoryDisk | undefined;

  crash(options: { readonly tornWrites?: number } = {}): void {
    const disk = this.disk as MemoryDisk;
    if (options.tornWrites !== undefined && this.dead === undefined && !disk.crashed) {
      try {
        disk.transact(this.pendingWrites(), options.tornWrites);
      } catch {
        // the crash it simulates
      }
    }
    this.abandon(
      new StoreError('closed', `member ${this.identity.member}'s memory store crashed (simulated)`),
    );
  }
}

/**
 * Open member `options.member`'s store on a simulated `disk` (synchronously: the memory disk
 * syncs instantly). Commits are grouped per microtask drain — every record staged before the
 * first `commit()` of a synchronous handler step and its microtasks goes into one transaction —
 * so the simulator's virtual clock sees no extra instants. Throws like {@link lmdbStore}
 * (`StoreError` `missing`/`exists`/`foreign`, `ConfigurationError` for bad options) and
 * `StoreError` `io` when the disk crashes while the identity is written.
 */
export function memoryStore(disk: MemoryDisk, options: OpenOptions): MemoryStore {
  const limits = limitsOf(options);
  const backend = {
    entries: () => disk.entries(),
    write: async (writes: ReadonlyArray<readonly [string, string | undefined]>) => disk.transact(writes),
    close: async () => {},
  };
  const { store, identityWrite } = openOver(
    backend,
    'memory',
    options,
    limits,
    queueMicrotask,
    (...args) => new MemoryProtocolStore(...args),
  );
  disk.transact(identityWrite);
  store.disk = disk;
  return store;
}
