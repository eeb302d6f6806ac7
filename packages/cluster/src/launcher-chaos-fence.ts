/*
 * The fencing-aware side of a chaos run's counter (issue 28 §1–3): what makes the shared file
 * counter of launcher-chaos-rmw.ts a resource that **rejects stale fencing tokens**, as an etcd
 * revision compare or a database's version column would — the files' counterpart of the
 * simulator's `FencedStore` (@critsec/harness).
 *
 * A counter file then also holds `fence`, the highest fencing token an operation on it carried.
 * A read or a write under token `f` is accepted only when `f ≥ fence` (the same holder reads and
 * then writes under one token), and raises `fence` to `f`; reads count too, so a holder that read
 * before a newer holder did cannot write afterwards. Each check-and-update is atomic across the
 * members' processes: it runs under the counter's store lock, `counter-<s>.lock`, created by
 * link(2) from a file holding its owner (`P<p>/<os pid>`) — it exists with its owner in it or not
 * at all — and removed after; a member killed holding it is named in it, so the runner removes
 * it ({@link releaseStoreLocksOf}) as it does a killed holder's slot claims. The lock is held
 * for one read or one rename, never across an await.
 */
import { linkSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Polling interval while another member holds a counter's store lock, ms. */
const LOCK_POLL_MS = 1;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The path of slot `s`'s store lock in `dir`. */
function lockPath(dir: string, s: number): string {
  return join(dir, `counter-${s}.lock`);
}

/**
 * Runs `fn` — synchronous: one check-and-update of slot `s`'s counter — under the slot's store
 * lock, taken as `owner` (`P<p>/<os pid>`); waits (polling every millisecond) while another
 * member holds it. The wait is bounded by the holder: a living one releases it within one
 * synchronous step, a killed one's lock is removed by the runner.
 */
export async function underStoreLock<T>(dir: string, s: number, owner: string, fn: () => T): Promise<T> {
  const mine = `${lockPath(dir, s)}.${owner.replaceAll('/', '_')}.tmp`;
  writeFileSync(mine, owner);
  try {
    for (;;) {
      try {
        linkSync(mine, lockPath(dir, s));
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        await sleep(LOCK_POLL_MS);
      }
    }
  } finally {
    unlinkSync(mine);
  }
  try {
    return fn();
  } finally {
    unlinkSync(lockPath(dir, s));
  }
}

/**
 * Whether an operation under fencing token `token` is admitted by a counter whose highest token
 * seen is `fence` (`undefined`: none yet): `token ≥ fence`.
 */
export function admits(fence: number | undefined, token: number): boolean {
  return fence === undefined || token >= fence;
}

/** Removes the store locks process `p` left (it was killed holding one); returns how many. */
export function releaseStoreLocksOf(dir: string, p: number): number {
  let released = 0;
  for (const f of readdirSync(dir)) {
    if (!/^counter-\d+\.lock$/.test(f)) continue;
    let owner: string;
    try {
      owner = readFileSync(join(dir, f), 'utf8');
    } catch {
      continue; // released meanwhile
    }
    if (!owner.startsWith(`P${p}/`)) continue;
    try {
      unlinkSync(join(dir, f));
      released++;
    } catch {
      // gone meanwhile
    }
  }
  return released;
}
