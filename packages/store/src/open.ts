import { IDENTITY_KEY, type StoreBackend } from './backend.js';
import { type GroupCommitStore, readDurable, type TurnScheduler } from './group-commit.js';
import { nextIdentity } from './identity.js';
import type { StoreLimits } from './limits.js';
import type { OpenOptions, StoreIdentity } from './types.js';

/** What opening a backend yields before the identity is written: the store and that write. */
export interface Opening<S> {
  readonly store: S;
  /** The identity record to write (synced) before the store is handed out. */
  readonly identityWrite: ReadonlyArray<readonly [string, string]>;
}

/**
 * Read `backend`, check its identity against `options` (StoreError `missing`/`exists`/`foreign`)
 * and build the store with the incarnation bumped; the caller writes `identityWrite` before use.
 */
export function openOver<S extends GroupCommitStore>(
  backend: StoreBackend,
  where: string,
  options: OpenOptions,
  limits: StoreLimits,
  schedule: TurnScheduler,
  make: (
    backend: StoreBackend,
    where: string,
    limits: StoreLimits,
    schedule: TurnScheduler,
    identity: StoreIdentity,
    state: ReturnType<typeof readDurable>,
  ) => S,
): Opening<S> {
  const state = readDurable(where, backend.entries());
  const identity = nextIdentity(where, state.identity, options);
  const store = make(backend, where, limits, schedule, identity, state);
  return { store, identityWrite: [[IDENTITY_KEY, JSON.stringify(identity)]] };
}
