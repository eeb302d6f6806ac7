import { ConfigurationError } from '@critsec/core';
import { open } from 'lmdb';
import type { StoreBackend } from './backend.js';
import { StoreError } from './errors.js';
import { GroupCommitStore } from './group-commit.js';
import { limitsOf } from './limits.js';
import { openOver } from './open.js';
import type { OpenOptions, ProtocolStore } from './types.js';

/**
 * Open (or, with `mode: 'create'`, create) member `options.member`'s durable store: an LMDB
 * environment in the file `path` (LMDB adds `path-lock` beside it; the directory must exist
 * and be on a local disk). The identity record — incarnation bumped — is committed, synced,
 * before the store is returned.
 *
 * Durability (why a resolved `commit()` survives a power cut, and a crash never corrupts): LMDB
 * is copy-on-write with no log to replay — a transaction writes its new pages, `fdatasync`s, then
 * writes the meta page naming the new root and `fdatasync`s again; a crash at any point leaves
 * the previous meta page naming a complete tree, so `load()` after a restart sees exactly the
 * transactions that committed. We open LMDB with `overlappingSync: false` (lmdb-js turns it on by
 * default on Linux, which resolves a commit **before** its flush) and `noSync`/`noMetaSync` off,
 * so each `commit()` resolves only after both syncs returned. Group commit: one transaction per
 * event-loop turn (`setImmediate`), written on lmdb-js's writer thread, never blocking the loop.
 *
 * Throws `ConfigurationError` for an empty path or bad bounds, `StoreError` `missing`/`exists`/
 * `foreign` (with the way out) when the store does not match the member, `io` when LMDB cannot
 * open or write it (the cause attached).
 */
export async function lmdbStore(path: string, options: OpenOptions): Promise<ProtocolStore> {
  if (typeof path !== 'string' || path.length === 0)
    throw new ConfigurationError('the store path must be a non-empty string');
  const limits = limitsOf(options);
  let db: ReturnType<typeof open<string, string>>;
  try {
    db = open<string, string>({
      path,
      encoding: 'string',
      compression: false,
      overlappingSync: false,
      noSync: false,
      cache: false,
    });
  } catch (cause) {
    throw new StoreError('io', `cannot open the LMDB store at ${path}: ${(cause as Error).message}`, {
      cause,
    });
  }
  const backend: StoreBackend = {
    *entries() {
      for (const { key, value } of db.getRange()) yield [key, value];
    },
    write: async (writes) => {
      await db.transaction(() => {
        for (const [key, text] of writes) {
          if (text === undefined) db.removeSync(key);
          else db.putSync(key, text);
        }
      });
    },
    close: () => db.close(),
  };
  try {
    const { store, identityWrite } = openOver(
      backend,
      path,
      options,
      limits,
      setImmediate,
      (...args) => new GroupCommitStore(...args),
    );
    await backend.write(identityWrite);
    return store;
  } catch (error) {
    await db.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError('io', `cannot open the LMDB store at ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
